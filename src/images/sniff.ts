/** Largest logo or background image accepted, from any source (upload, base64, URL). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The image types accepted for logos and backgrounds, recognised by their magic bytes. */
export type ImageType = 'png' | 'jpg' | 'gif' | 'bmp' | 'webp';

const startsWith = (b: Uint8Array, sig: number[], at = 0) =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

/** The declared Content-Type of an upload is never trusted: the bytes say what the file is. */
export function sniffImageType(b: Uint8Array): ImageType | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return 'gif';
  if (startsWith(b, [0x42, 0x4d]) && b.length >= 26) return 'bmp';
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}
