import { balloonBottom } from './frames/balloon.js';
import { border, boxBottom } from './frames/box.js';
import { plain, textOnly } from './frames/caption.js';
import { circular } from './frames/circular.js';
import { focus, scanCorners } from './frames/corners.js';
import { bannerBottom, pillBottom } from './frames/label.js';
import { flipped, type Frame } from './frames/parts.js';
import type { FrameStyle } from '../model/vocabulary.js';

/**
 * Every frame by name. A frame takes canvas space around the code (the code shrinks, the canvas keeps
 * its size) and never enters the quiet zone. Frames with a text place show ctaText, or "SCAN ME" when it
 * is absent; the others show ctaText, when given, as a caption.
 */
const FRAMES = {
  none: plain,
  'box-bottom': boxBottom,
  'box-top': flipped(boxBottom),
  'banner-top': flipped(bannerBottom),
  'banner-bottom': bannerBottom,
  'balloon-bottom': balloonBottom,
  'balloon-top': flipped(balloonBottom),
  'pill-bottom': pillBottom,
  'pill-top': flipped(pillBottom),
  circular,
  'text-only': textOnly,
  border,
  focus,
  'scan-corners': scanCorners,
} satisfies Record<FrameStyle, Frame>;

export const frameOf = (style: FrameStyle): Frame => FRAMES[style];
