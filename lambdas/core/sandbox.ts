import { randomUUID } from 'node:crypto';
import { generateSandboxKey, hashKey } from './api-key.ts';
import { rateLimited } from './errors.ts';
import { limits } from './limits.ts';
import type { ApiKeys, Clock, SandboxIssues } from './ports.ts';

export interface SandboxKey {
  api_key: string;
  pages_remaining: number;
  expires_at: string;
}

/** An anonymous trial key: its own project, 50 pages, 24 hours, bound to `ip`. */
export async function issueSandboxKey(deps: { sandboxIssues: SandboxIssues; keys: ApiKeys; clock: Clock }, ip: string): Promise<SandboxKey> {
  const now = deps.clock.now();
  const gate = await deps.sandboxIssues.claimSandboxIssue(ip, now, limits.sandboxWindowMs, limits.sandboxKeysPerIp);
  if (!gate.ok) {
    throw rateLimited(
      `This IP address has been issued ${limits.sandboxKeysPerIp} sandbox keys in the last 24 hours. ` +
        'Reuse one of them, wait for the time in Retry-After, or ask for a live key.',
      gate.retryAfterMs,
    );
  }
  const apiKey = generateSandboxKey();
  const expiresAt = now + limits.sandboxKeyLifetimeMs;
  await deps.keys.putApiKey({
    key_hash: hashKey(apiKey),
    project_id: randomUUID(),
    tier: 'sandbox',
    created_at: now,
    revoked_at: null,
    ip,
    pages_remaining: limits.sandboxPages,
    expires_at: Math.floor(expiresAt / 1000),
  });
  return { api_key: apiKey, pages_remaining: limits.sandboxPages, expires_at: new Date(expiresAt).toISOString() };
}
