/**
 * One export rendered in-process and read back by both decoder families, for the writers' tests
 * (test/render/formats/jpeg.test.ts, webp.test.ts): the payload zxing reads from the file and the
 * payloads zbar reads from its pixels, as bytes.
 */
import { scanRGBABuffer } from '@undecaf/zbar-wasm';
import type { RenderConfig } from '../../src/model/render-config.js';
import type { FileFormat } from '../../src/model/vocabulary.js';
import { render } from '../../src/render/guarantee.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { decodeOne, fileToImage } from './decode.js';

export interface Design {
  primaryColor: string;
  backgroundColor: string;
  moduleShape: RenderConfig['moduleShape'];
  /** The modules are lighter than the background. */
  lightOnDark: boolean;
}

/**
 * Renders `content` as `format` at `size` px and reads it back. zbar looks for dark modules on light only
 * (a PNG of a light-on-dark code reads nothing either), so such a file's pixels are inverted for it first,
 * as a reader app that tries both polarities does.
 */
export async function roundTrip(format: FileFormat, content: string, size: number, design: Design) {
  const config: RenderConfig = {
    ...QR_DEFAULTS,
    content,
    fileFormat: format,
    outputWidth: size,
    moduleShape: design.moduleShape,
    primaryColor: design.primaryColor,
    backgroundColor: design.backgroundColor,
  };
  const out = await render({ config, assets: {} });
  if (!out.ok) throw new Error(out.message);
  const zxing = (await decodeOne(format, out.bytes)).bytes;
  const img = await fileToImage(format, out.bytes);
  if (design.lightOnDark)
    for (let i = 0; i < img.data.length; i += 4) for (let c = 0; c < 3; c++) img.data[i + c] = 255 - img.data[i + c]!;
  const symbols = await scanRGBABuffer(img.data.buffer as ArrayBuffer, img.width, img.height);
  const zbar = symbols.filter((s) => s.typeName === 'ZBAR_QRCODE').map((s) => new Uint8Array(s.data.buffer));
  return { out, zxing, zbar };
}
