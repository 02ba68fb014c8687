import { describe, expect, it } from 'vitest';
import { isOn, Nb, neighbourBits, selectModules } from '../../src/design/grid.js';
import { unitHash } from '../../src/design/hash.js';
import { gridOf } from './grid-fixture.js';

describe('module selection and neighbours', () => {
  const grid = gridOf(['###', '###', '##.']);

  it('draws a module only when it is dark and selected', () => {
    const sel = selectModules(grid, (i) => i !== 4);
    expect([...sel.on]).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 0]);
    expect(isOn(sel, 1, 1)).toBe(false);
    expect(isOn(sel, -1, 0)).toBe(false);
    expect(isOn(sel, 0, 3)).toBe(false);
  });

  it('names the drawn neighbours by compass direction, outside the symbol counting as empty', () => {
    const all = selectModules(grid, () => true);
    expect(neighbourBits(all, 1, 1)).toBe(Nb.N | Nb.E | Nb.S | Nb.W | Nb.NE | Nb.SW | Nb.NW);
    expect(neighbourBits(all, 0, 0)).toBe(Nb.E | Nb.S | Nb.SE);
    expect(
      neighbourBits(
        selectModules(grid, (i) => i !== 4),
        0,
        0,
      ),
    ).toBe(Nb.E | Nb.S);
  });
});

describe('unitHash', () => {
  it('is a deterministic value in [0, 1) per seed, index and salt', () => {
    expect(unitHash(7, 12, 0)).toBe(unitHash(7, 12, 0));
    expect(unitHash(7, 12, 0)).not.toBe(unitHash(8, 12, 0));
    expect(unitHash(7, 12, 0)).not.toBe(unitHash(7, 12, 1));
    for (let i = 0; i < 1000; i++) {
      const v = unitHash(3, i);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
  });

  it('spreads evenly with no visible pattern between neighbouring modules', () => {
    const n = 20000;
    const v = Array.from({ length: n }, (_, i) => unitHash(42, i));
    const mean = v.reduce((a, b) => a + b, 0) / n;
    let cov = 0;
    for (let i = 1; i < n; i++) cov += (v[i] - mean) * (v[i - 1] - mean);
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(cov / (n - 1) / (1 / 12))).toBeLessThan(0.03);
  });
});
