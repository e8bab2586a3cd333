// A project's live keys, managed with a live key of the same project (the
// dashboard's API keys section). Plaintext exists only in the create answer.

import { randomUUID } from 'node:crypto';
import { generateLiveKey, hashKey, LIVE_PREFIX } from './api-key.ts';
import type { Principal } from './auth.ts';
import { ApiError, forbidden, invalidRequest, notFound } from './errors.ts';
import type { ApiKeyRecord, ApiKeys, Clock } from './ports.ts';

export interface KeyView {
  id: string;
  prefix: string;
  last_four: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The key this request was made with. */
  current: boolean;
}

const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function liveOnly(principal: Principal): void {
  if (principal.tier !== 'live') {
    throw forbidden('Sandbox keys cannot manage API keys. Sign in with a live key (kz_...) of your project.');
  }
}

const view = (key: ApiKeyRecord, principal: Principal): KeyView => ({
  id: key.id ?? key.key_hash.slice(0, 32),
  prefix: LIVE_PREFIX,
  last_four: key.last_four ?? '????',
  created_at: new Date(key.created_at).toISOString(),
  last_used_at: iso(key.last_used_at),
  revoked_at: iso(key.revoked_at),
  current: key.key_hash === principal.key_hash,
});

/** The fields a new live key record carries besides its hash: an id to address it and its last four characters to recognise it. */
export function liveKeyRecord(apiKey: string, projectId: string, now: number): ApiKeyRecord {
  return { key_hash: hashKey(apiKey), id: randomUUID(), last_four: apiKey.slice(-4), project_id: projectId, tier: 'live', created_at: now, revoked_at: null };
}

export async function listKeys(deps: { keys: ApiKeys }, principal: Principal): Promise<{ keys: KeyView[] }> {
  liveOnly(principal);
  const keys = await deps.keys.listApiKeys(principal.project_id);
  return { keys: keys.sort((a, b) => b.created_at - a.created_at).map((k) => view(k, principal)) };
}

export async function createKey(deps: { keys: ApiKeys; clock: Clock }, principal: Principal): Promise<KeyView & { api_key: string }> {
  liveOnly(principal);
  const apiKey = generateLiveKey();
  const record = liveKeyRecord(apiKey, principal.project_id, deps.clock.now());
  await deps.keys.putApiKey(record);
  return { ...view(record, principal), api_key: apiKey };
}

export async function revokeKey(deps: { keys: ApiKeys; clock: Clock }, principal: Principal, id: string): Promise<void> {
  liveOnly(principal);
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a key id; GET /v1/keys lists the ids.`);
  const keys = await deps.keys.listApiKeys(principal.project_id);
  const key = keys.find((k) => k.id === id.toLowerCase());
  if (!key) throw notFound(`No key ${id} in this project; GET /v1/keys lists them.`);
  if (key.revoked_at !== null) return;
  if (!keys.some((k) => k.revoked_at === null && k.id !== key.id)) {
    throw new ApiError(409, 'conflict', 'This is the project\'s last active key; create another key before revoking it, or you lock yourself out.');
  }
  await deps.keys.revokeApiKey(key.key_hash, deps.clock.now());
}
