// PNG scanlines of a straight-alpha RGBA raster (src/render/formats/png.ts), each behind filter byte 0
// (None: in these images a row mostly repeats the row above a pixel along, which deflate.ts copies from
// there; every other filter turns such copies into residues).

/**
 * RGB scanlines of an opaque raster into `out`: four pixels at a time, their alpha bytes dropped by one
 * shuffle. Each 16-byte store runs 4 bytes past its 12, overwritten by the next store or the next row, so
 * `out` needs 4 bytes to spare. Returns false, having stopped there, at the first row with a translucent pixel.
 */
export function rgbScanlines(src: usize, width: i32, height: i32, out: usize): bool {
  const drop = i8x16(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  const opaque = i32x4.splat(0xff000000);
  for (let y = 0; y < height; y++) {
    let p = src + (<usize>(y * width) << 2);
    let o = out + <usize>(y * (width * 3 + 1));
    store<u8>(o++, 0);
    let alpha = opaque;
    let x = 0;
    for (; x + 4 <= width; x += 4, p += 16, o += 12) {
      const v = v128.load(p);
      alpha = v128.and(alpha, v);
      v128.store(o, i8x16.swizzle(v, drop));
    }
    let rest: u32 = 0xff000000;
    for (; x < width; x++, p += 4, o += 3) {
      const v = load<u32>(p);
      rest &= v;
      store<u16>(o, <u16>v);
      store<u8>(o, <u8>(v >> 16), 2);
    }
    if (!i32x4.all_true(i32x4.eq(alpha, opaque)) || rest != 0xff000000) return false;
  }
  return true;
}

/** RGBA scanlines into `out`: each row copied behind its filter byte. */
export function rgbaScanlines(src: usize, width: i32, height: i32, out: usize): void {
  const rowBytes = <usize>width << 2;
  for (let y = 0; y < height; y++) {
    const o = out + <usize>y * (rowBytes + 1);
    store<u8>(o, 0);
    memory.copy(o + 1, src + <usize>y * rowBytes, rowBytes);
  }
}
