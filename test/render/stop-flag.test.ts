import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderConfig } from '../../src/model/render-config.js';
import { render } from '../../src/render/guarantee.js';
import { newStopFlag, RenderStopped, raiseStopFlag } from '../../src/render/stop-flag.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm } from '../../wasm/index.js';
import { decodeOne } from '../helpers/decode.js';

beforeAll(initWasm);

const config = (content: string): RenderConfig =>
  ({ ...QR_DEFAULTS, content, outputWidth: 400, moduleShape: 'dots' }) as RenderConfig;

describe('the stop flag (stop-flag.ts)', () => {
  it('down, the render runs as ever; raised, it stops before drawing; the next render is whole', async () => {
    const flag = newStopFlag();
    const first = await render({ config: config('flag down'), assets: {}, stop: flag });
    expect(first.ok && (await decodeOne('png', first.bytes)).text).toBe('flag down');

    raiseStopFlag(flag);
    await expect(render({ config: config('flag up'), assets: {}, stop: flag })).rejects.toBeInstanceOf(RenderStopped);

    const after = await render({ config: config('after a stop'), assets: {}, stop: newStopFlag() });
    expect(after.ok && (await decodeOne('png', after.bytes)).text).toBe('after a stop');
  });

  it('lives in shared memory, so a worker sees what the main thread raises (a copy would never change)', () => {
    const flag = newStopFlag();
    expect(flag.buffer).toBeInstanceOf(SharedArrayBuffer);
    raiseStopFlag(new Int32Array(flag.buffer));
    expect(Atomics.load(flag, 0)).toBe(1);
  });
});
