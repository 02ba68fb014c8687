// The verifier's reads of a raster (src/render/verify.ts): grey levels as a decoder computes them, and
// box-filtered reductions as zxing's pyramid makes them. Like raster.ts, it works on memory laid out by
// its JS side and allocates nothing.

/**
 * Grey levels of `n` straight RGBA pixels, each over white as a viewer shows a translucent pixel, by the
 * formula of the reader that will see them: stb_image's (77R + 150G + 29B) >> 8, with which zxing reads
 * PNG and JPEG files, or zxing's own (306R + 601G + 117B + 512) >> 10 for pixels it is handed.
 */
export function greyOfRgba(src: usize, n: i32, zxing: bool, out: usize): void {
  for (let i = 0; i < n; i++) {
    const p = load<u32>(src + (<usize>i << 2));
    const r = p & 0xff;
    const g = (p >>> 8) & 0xff;
    const b = (p >>> 16) & 0xff;
    const a = p >>> 24;
    let v = zxing ? (306 * r + 601 * g + 117 * b + 512) >> 10 : (77 * r + 150 * g + 29 * b) >> 8;
    // Rounded half up, as Math.round((v·a + 255·(255 − a)) / 255).
    if (a != 255) v = (2 * (v * a + 255 * (255 - a)) + 255) / 510;
    store<u8>(out + <usize>i, <u8>v);
  }
}

/** Grey levels of `n` palette indices through a table of each palette entry's grey. */
export function greyOfIndexed(src: usize, n: i32, table: usize, out: usize): void {
  for (let i = 0; i < n; i++) store<u8>(out + <usize>i, load<u8>(table + <usize>load<u8>(src + <usize>i)));
}

/**
 * Box-filters a grey image by an integer factor `f` into RGBA (what zxing is handed), ⌊width / f⌋ ×
 * ⌊height / f⌋ pixels, each block's mean rounded as zxing-cpp's pyramid rounds it, (sum + f²/2) / f²
 * truncated; `invert` reads 255 − grey, for light-on-dark codes.
 */
export function boxFilter(grey: usize, width: i32, height: i32, f: i32, invert: bool, out: usize): void {
  const w = width / f;
  const h = height / f;
  const area = f * f;
  for (let oy = 0; oy < h; oy++) {
    for (let ox = 0; ox < w; ox++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = grey + <usize>((oy * f + dy) * width + ox * f);
        for (let dx = 0; dx < f; dx++) s += <i32>load<u8>(row + <usize>dx);
      }
      if (invert) s = 255 * area - s;
      const v = <u32>((s + (area >> 1)) / area);
      store<u32>(out + (<usize>(oy * w + ox) << 2), v | (v << 8) | (v << 16) | 0xff000000);
    }
  }
}
