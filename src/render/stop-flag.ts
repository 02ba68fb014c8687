/**
 * A render's stop flag: one Int32 in a SharedArrayBuffer that the main thread raises once nobody waits for
 * the render any more (its client went away). The worker reads it between stages, so a busy worker learns
 * of it without a message and stops there, and stays: terminating it instead would cost a new worker that
 * reloads every WASM module.
 */
export type StopFlag = Int32Array;

export const newStopFlag = (): StopFlag => new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

export const raiseStopFlag = (flag: StopFlag): void => {
  Atomics.store(flag, 0, 1);
};

/** Thrown in the worker at the first stage boundary after the flag went up; nobody reads the result. */
export class RenderStopped extends Error {
  override readonly name = 'RenderStopped';
}

export function stopIfRaised(flag: StopFlag | undefined): void {
  if (flag !== undefined && Atomics.load(flag, 0) !== 0) throw new RenderStopped('the client went away');
}
