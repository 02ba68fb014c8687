/**
 * MSB-first bit writer over a fixed byte array. The encoder knows the symbol's data capacity before it
 * writes, so the buffer is sized once and never grows.
 */
export class BitBuffer {
  readonly bytes: Uint8Array;
  length = 0;

  constructor(byteCapacity: number) {
    this.bytes = new Uint8Array(byteCapacity);
  }

  /** Appends the low `bitCount` bits of `value`, most significant first (bitCount ≤ 24). */
  put(value: number, bitCount: number): void {
    // A byte-sized chunk at a time: at most three steps for the widest field (16-bit counts, 11-bit pairs).
    while (bitCount > 0) {
      const free = 8 - (this.length & 7);
      const take = Math.min(free, bitCount);
      const chunk = (value >>> (bitCount - take)) & ((1 << take) - 1);
      this.bytes[this.length >>> 3] |= chunk << (free - take);
      this.length += take;
      bitCount -= take;
    }
  }
}
