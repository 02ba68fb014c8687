/** Limits of the contract (docs/contract.md), in one place so the schema, the pipeline and the docs agree. */
export const LIMITS = {
  contentChars: 4296,
  outputPx: { min: 64, max: 4096 },
  pixelsPerModule: { min: 1, max: 100 },
  /** printSize's density; with the width it must make an image within outputPx. */
  printDpi: { min: 72, max: 1200 },
  quietZone: { min: 4, max: 40 },
  logoSizePercent: { min: 3, max: 40 },
  /** The largest logo drawn: above it, a logo is shrunk to it (with ECC H; below H it is refused). */
  logoSizeSoftCapPercent: 25,
  moduleScale: { min: 0.5, max: 1 },
  moduleSizeVariation: { min: 0, max: 0.15 },
  qrShapeRadius: { min: 0, max: 50 },
  /** Base64 of a 10 MB file. */
  base64ImageChars: Math.ceil((10 * 1024 * 1024) / 3) * 4 + 64,
  urlChars: 2048,
  textChars: 200,
} as const;
