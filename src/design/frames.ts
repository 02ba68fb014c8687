/** Names accepted by `frameStyle`. */
export const FRAME_STYLES = ['none', 'box-bottom', 'box-top', 'banner-top', 'banner-bottom', 'balloon-bottom', 'balloon-top', 'circular', 'text-only', 'focus', 'scan-corners'] as const;
export type FrameStyle = (typeof FRAME_STYLES)[number];
