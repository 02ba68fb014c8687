/** Names accepted by `fontFamily`. */
export const FONT_FAMILIES = ['sans'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];
