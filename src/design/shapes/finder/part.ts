import type { Loop } from '../../geometry/path.js';

/** One finder-eye shape (an outer ring or a centre) in eye-local coordinates. */
export interface EyePart {
  readonly loops: readonly Loop[];
  /**
   * Drawn as designed for the top-left eye and mirrored for the others (left-right for top-right,
   * up-down for bottom-left), so a corner that points outward does so on every eye.
   */
  readonly directional?: boolean;
}
