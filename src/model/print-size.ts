/**
 * A physical size for print: the width of the whole image (quiet zone, frame and caption included) in
 * millimetres or inches, and the raster density it is drawn at. Raster exports are `width × dpi` pixels
 * wide and carry that density; vector exports are that wide on paper, their verification raster drawn at
 * the same pixels.
 */
export interface PrintSize {
  width: number;
  unit: 'mm' | 'in';
  dpi: number;
}

export const MM_PER_INCH = 25.4;
export const PT_PER_INCH = 72;

export const widthInInches = (p: PrintSize): number => (p.unit === 'in' ? p.width : p.width / MM_PER_INCH);

/** The image's width in pixels: the physical width at the density, to the nearest pixel. */
export const pixelWidth = (p: PrintSize): number => Math.round(widthInInches(p) * p.dpi);
