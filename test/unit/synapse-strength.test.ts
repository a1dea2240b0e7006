import { describe, expect, it } from 'vitest';
import { mechanicalStrength } from '../../src/contexts/synapse/index.js';
import {
  MAX_STRENGTH,
  MIN_STRENGTH,
  strengthen,
  validateStrength,
  weaken,
} from '../../src/contexts/synapse/testing.js';

describe('strengthen', () => {
  it('closes a share of the distance to 1', () => {
    expect(strengthen(0.5, 0.2)).toBeCloseTo(0.6);
    expect(strengthen(0.1, 0.5)).toBeCloseTo(0.55);
  });

  it('saturates below 1, however often and however hard', () => {
    let s = 0.3;
    for (let i = 0; i < 10_000; i++) s = strengthen(s, 1);
    expect(s).toBe(MAX_STRENGTH);
    expect(s).toBeLessThan(1);
  });

  it('never lowers a strength, even one set above the ceiling by the mind', () => {
    expect(strengthen(1, 0.5)).toBe(1);
    expect(strengthen(0.995, 0.1)).toBe(0.995);
  });
});

describe('weaken', () => {
  it('removes a share of what is left', () => {
    expect(weaken(0.5, 0.2)).toBeCloseTo(0.4);
  });

  it('never reaches 0', () => {
    let s = 0.9;
    for (let i = 0; i < 10_000; i++) s = weaken(s, 1);
    expect(s).toBe(MIN_STRENGTH);
    expect(s).toBeGreaterThan(0);
  });

  it('never raises a strength', () => {
    expect(weaken(MIN_STRENGTH, 0.5)).toBe(MIN_STRENGTH);
  });
});

describe('mechanicalStrength', () => {
  it('maps a rule score in [0,1] to [0.1, 0.5], clamping outside', () => {
    expect(mechanicalStrength(0)).toBeCloseTo(0.1);
    expect(mechanicalStrength(1)).toBeCloseTo(0.5);
    expect(mechanicalStrength(0.5)).toBeCloseTo(0.3);
    expect(mechanicalStrength(7)).toBeCloseTo(0.5);
    expect(mechanicalStrength(-1)).toBeCloseTo(0.1);
  });
});

describe('validateStrength', () => {
  it('takes the fallback when none is given and accepts (0, 1]', () => {
    expect(validateStrength(null, 0.6)).toBe(0.6);
    expect(validateStrength(undefined, 0.2)).toBe(0.2);
    expect(validateStrength(1, 0.6)).toBe(1);
    expect(validateStrength(0.001, 0.6)).toBe(0.001);
  });

  it.each([0, -0.1, 1.01, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %s with SYNAPSE.INVALID_STRENGTH',
    (value) => {
      expect(() => validateStrength(value, 0.6)).toThrow(expect.objectContaining({ code: 'SYNAPSE.INVALID_STRENGTH' }));
    },
  );
});
