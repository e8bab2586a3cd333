import { hashKey, keyTier, type KeyTier } from './api-key.ts';
import { forbidden, unauthorized } from './errors.ts';
import type { QuotaRef } from './job.ts';
import type { KeyLookup } from './ports.ts';

export interface Principal {
  project_id: string;
  tier: KeyTier;
  key_hash: string;
  /** Where this caller's pages are counted. */
  quota: QuotaRef;
}

/** "Last used" is shown to the minute; recording it more often would turn every request into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

const HELP = 'Send "Authorization: Bearer <API_KEY>" with a live key (kz_...) or a sandbox key from POST /v1/sandbox/key.';

/**
 * Resolves the bearer key to its project. `sourceIp` is the socket address
 * (locally) or API Gateway's requestContext.identity.sourceIp: never a
 * client-sent header, so a sandbox key cannot be moved to another IP.
 */
export async function authenticate(
  keys: KeyLookup,
  authorization: string | undefined,
  sourceIp: string,
  now: number,
): Promise<Principal> {
  if (!authorization) throw unauthorized(`Missing API key. ${HELP}`);
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  if (!token || !keyTier(token)) throw unauthorized(`Malformed Authorization header. ${HELP}`);

  const keyHash = hashKey(token);
  const key = await keys.getApiKey(keyHash);
  if (!key || key.revoked_at !== null) throw unauthorized(`Unknown or revoked API key. ${HELP}`);
  if (key.tier === 'sandbox') {
    if ((key.expires_at ?? 0) * 1000 <= now) {
      throw unauthorized('This sandbox key has expired (they last 24 hours). Get a new one from POST /v1/sandbox/key.');
    }
    if (key.ip !== sourceIp) {
      throw unauthorized('This sandbox key is bound to the IP address it was issued to. Get a key from this address with POST /v1/sandbox/key.');
    }
  }
  if (key.tier === 'live' && now - (key.last_used_at ?? 0) > LAST_USED_RESOLUTION_MS) {
    await keys.touchApiKey(keyHash, now, LAST_USED_RESOLUTION_MS);
  }
  return {
    project_id: key.project_id,
    tier: key.tier,
    key_hash: keyHash,
    quota: key.tier === 'sandbox' ? { kind: 'sandbox_key', key_hash: keyHash } : { kind: 'project', project_id: key.project_id },
  };
}

/**
 * What a sandbox key may do: extract (POST /v1/extract, POST /v1/uploads),
 * read and cancel its own jobs, and read their delivery log. Everything that
 * belongs to a project rather than to one trial (its job list, usage,
 * registered webhooks, API keys) needs a live key: a 403 that says so.
 */
export function requireLive(principal: Principal, what: string): void {
  if (principal.tier !== 'live') {
    throw forbidden(`A sandbox key can submit documents and read its own jobs, not ${what}. Use a live key (kz_...) of your project.`);
  }
}
