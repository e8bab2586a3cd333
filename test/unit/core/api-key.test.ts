import { describe, expect, it } from 'vitest';
import { generateLiveKey, generateSandboxKey, hashKey, keyTier, randomBase62 } from '../../../lambdas/core/api-key.ts';

describe('API keys', () => {
  it('live keys are kz_ and 29 Base62 characters, 32 in all', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateLiveKey();
      expect(key).toMatch(/^kz_[0-9A-Za-z]{29}$/);
      expect(key).toHaveLength(32);
      expect(keyTier(key)).toBe('live');
    }
  });

  it('sandbox keys carry the sk_sandbox_ prefix', () => {
    expect(keyTier(generateSandboxKey())).toBe('sandbox');
  });

  it('anything else is not a key', () => {
    for (const bad of ['', 'kz_', `kz_${'a'.repeat(28)}`, `kz_${'a'.repeat(30)}`, `kz_${'a'.repeat(28)}-`, `sk_live_${'a'.repeat(29)}`]) {
      expect(keyTier(bad)).toBeNull();
    }
  });

  it('draws every Base62 character about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2000 expected per character; a biased generator (byte % 62) over-draws the first 8 by ~25%.
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(1700);
      expect(n).toBeLessThan(2300);
    }
  });

  it('hashes keys with SHA-256 as lowercase hex', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
