import { describe, expect, it } from 'vitest';
import { generateLiveKey, generateSandboxKey, hashKey } from '../../../lambdas/core/api-key.ts';
import { authenticate } from '../../../lambdas/core/auth.ts';
import { ApiError } from '../../../lambdas/core/errors.ts';
import type { ApiKeyRecord, KeyLookup } from '../../../lambdas/core/ports.ts';

const NOW = 1_700_000_000_000;

/** What authenticate asks for: the lookup, and the last-used stamp (conditional, as the table's: only when older than `staleMs`). */
function keysOnly(records: ApiKeyRecord[]): KeyLookup {
  const byHash = new Map(records.map((r) => [r.key_hash, r]));
  return {
    getApiKey: async (hash: string) => byHash.get(hash) ?? null,
    touchApiKey: async (hash: string, now: number, staleMs: number) => {
      const key = byHash.get(hash);
      if (key && (key.last_used_at == null || key.last_used_at <= now - staleMs)) key.last_used_at = now;
    },
  };
}

async function status(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  return error instanceof ApiError ? error.status : 'accepted';
}

describe('authentication', () => {
  const live = generateLiveKey();
  const sandbox = generateSandboxKey();
  const revoked = generateLiveKey();
  const store = keysOnly([
    { key_hash: hashKey(live), project_id: 'p-live', tier: 'live', created_at: NOW, revoked_at: null },
    { key_hash: hashKey(revoked), project_id: 'p-live', tier: 'live', created_at: NOW, revoked_at: NOW },
    { key_hash: hashKey(sandbox), project_id: 'p-sand', tier: 'sandbox', created_at: NOW, revoked_at: null, ip: '198.51.100.1', pages_remaining: 50, expires_at: NOW / 1000 + 60 },
  ]);

  it('resolves a live key to its project, with the project as quota', async () => {
    const principal = await authenticate(store, `Bearer ${live}`, '203.0.113.9', NOW);
    expect(principal).toEqual({ project_id: 'p-live', tier: 'live', key_hash: hashKey(live), quota: { kind: 'project', project_id: 'p-live' } });
  });

  it('stamps a live key as used at most once a minute', async () => {
    const record = (await store.getApiKey(hashKey(live)))!;
    await authenticate(store, `Bearer ${live}`, '203.0.113.9', NOW + 100_000);
    expect(record.last_used_at).toBe(NOW + 100_000);
    await authenticate(store, `Bearer ${live}`, '203.0.113.9', NOW + 130_000);
    expect(record.last_used_at).toBe(NOW + 100_000);
    await authenticate(store, `Bearer ${live}`, '203.0.113.9', NOW + 161_000);
    expect(record.last_used_at).toBe(NOW + 161_000);
  });

  it('accepts a sandbox key from its own IP only, until it expires', async () => {
    expect(await status(authenticate(store, `Bearer ${sandbox}`, '198.51.100.1', NOW))).toBe('accepted');
    expect(await status(authenticate(store, `Bearer ${sandbox}`, '198.51.100.2', NOW))).toBe(401);
    expect(await status(authenticate(store, `Bearer ${sandbox}`, '198.51.100.1', NOW + 61_000))).toBe(401);
  });

  it.each([undefined, '', 'Bearer', `Basic ${live}`, `Bearer ${live}x`, 'Bearer kz_123'])('answers 401 to the header %s', async (header) => {
    expect(await status(authenticate(store, header, '203.0.113.9', NOW))).toBe(401);
  });

  it('answers 401 to a well-formed key nobody issued, and to a revoked one', async () => {
    expect(await status(authenticate(store, `Bearer ${generateLiveKey()}`, '203.0.113.9', NOW))).toBe(401);
    expect(await status(authenticate(store, `Bearer ${revoked}`, '203.0.113.9', NOW))).toBe(401);
  });
});
