import { invalidRequest } from './errors.ts';
import type { WebhookTarget } from './job.ts';

export interface WebhookUrlPolicy {
  /** The local server (development) may call plain-http loopback receivers; the cloud never does. */
  allowLoopbackHttp: boolean;
}

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Checks a webhook URL at submission, so a bad one fails the request, not the delivery hours later. */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest(`webhook.url "${raw}" is not a valid absolute URL. Use https://your-host/path.`);
  }
  if (raw.length > 2048) throw invalidRequest('webhook.url is longer than 2048 characters.');
  if (url.username || url.password) {
    throw invalidRequest('webhook.url must not carry credentials; use a webhook secret to authenticate deliveries.');
  }
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && policy.allowLoopbackHttp && LOOPBACK_HOSTS.test(url.hostname)) return url.toString();
  const allowed = policy.allowLoopbackHttp ? 'https:// (or http://localhost in development)' : 'https://';
  throw invalidRequest(`webhook.url must use ${allowed}; got "${url.protocol}//${url.host}".`);
}

/**
 * The `webhook` form field: a JSON object `{ "url": string }`. An empty url
 * means "no webhook for this submission", as the spec allows.
 */
export function parseWebhookField(raw: string, policy: WebhookUrlPolicy): WebhookTarget | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidRequest('The webhook field must be a JSON object such as {"url":"https://example.com/hook"}; it is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest('The webhook field must be a JSON object such as {"url":"https://example.com/hook"}.');
  }
  const { url, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw invalidRequest(`Unknown webhook field(s): ${unknown.join(', ')}. Accepted: url.`);
  if (typeof url !== 'string') throw invalidRequest('webhook.url must be a string.');
  if (url.trim() === '') return null;
  return { url: checkWebhookUrl(url.trim(), policy) };
}
