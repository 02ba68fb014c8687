import { PDFDocument, rgb } from 'pdf-lib';
import type { Paint, Scene } from '../scene.js';

/** CSS reference pixel: 96 per inch, so one pixel is 0.75 PDF points. */
export const PT_PER_PX = 0.75;
/** Fixed metadata dates keep the same request byte-identical. */
const EPOCH = new Date(0);

const color = (p: Paint) => ({ color: rgb(p.color.r / 255, p.color.g / 255, p.color.b / 255), opacity: p.color.a / 255 });

/** One vector page sized to the output (width × height pixels at 96 dpi), drawn from the scene's paths. */
export async function sceneToPdf(scene: Scene): Promise<Uint8Array> {
  const { width, height, originX, originY, modulePx } = scene.layout;
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreationDate(EPOCH);
  doc.setModificationDate(EPOCH);
  doc.setProducer('qrfarm');
  doc.setCreator('qrfarm');
  const page = doc.addPage([width * PT_PER_PX, height * PT_PER_PX]);
  page.drawRectangle({ x: 0, y: 0, width: width * PT_PER_PX, height: height * PT_PER_PX, ...color(scene.background) });
  for (const layer of scene.layers) {
    // drawSvgPath flips the y axis itself: (x, y) is where the path's origin lands, measured from the bottom.
    page.drawSvgPath(layer.d, { x: originX * PT_PER_PX, y: (height - originY) * PT_PER_PX, scale: modulePx * PT_PER_PX, ...color(layer.paint), borderWidth: 0 });
  }
  return doc.save({ addDefaultPage: false });
}
