// Levels (src/render/canvas.ts): a scene of one colour over another drawn a byte per pixel, 0 its
// background and 255 its foreground, which most of its pixels are; its readers (palette.ts, grey.ts)
// take sixteen at a time where all sixteen are one or the other.

/** The lanes of sixteen levels at the foreground (255), as a mask. */
// @ts-ignore: decorator
@inline export function foregroundLanes(v: v128): v128 {
  return i8x16.eq(v, i8x16.splat(-1));
}

/** Whether each of sixteen levels is background (0) or foreground; `foreground` is foregroundLanes(v). */
// @ts-ignore: decorator
@inline export function onlyBackgroundOrForeground(v: v128, foreground: v128): bool {
  return i8x16.all_true(v128.or(i8x16.eq(v, i8x16.splat(0)), foreground));
}
