import { invalidRequest } from './errors.ts';
import { parseJson } from './json-schema.ts';
import { validate as inlineWebhook } from './validators/inline-webhook.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind, type WebhookTarget } from './job.ts';
import { addressRefusal, hostRefusal, ipLiteral, type LookupHost } from './webhook-address.ts';
import { checkSuppliedSecret, sealSecret, type SecretCipher } from './webhook-secret.ts';

export interface WebhookUrlPolicy {
  /** The local server (development) may call plain-http loopback receivers; the cloud never does. */
  allowLoopbackHttp: boolean;
}

/** What taking in a webhook URL and secret needs: the URL rules, DNS to check the host, and the cipher to seal the secret. */
export interface WebhookIntake extends WebhookUrlPolicy {
  lookupHost: LookupHost;
  cipher: SecretCipher;
}

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Checks a webhook URL's form, so a bad one fails the request, not the delivery hours later. */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, field = 'webhook.url'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest(`${field} "${raw}" is not a valid absolute URL. Use https://your-host/path.`);
  }
  if (raw.length > 2048) throw invalidRequest(`${field} is longer than 2048 characters.`);
  if (url.username || url.password) {
    throw invalidRequest(`${field} must not carry credentials; use a webhook secret to authenticate deliveries.`);
  }
  const allowedScheme =
    url.protocol === 'https:' || (url.protocol === 'http:' && policy.allowLoopbackHttp && LOOPBACK_HOSTS.test(url.hostname));
  if (!allowedScheme) {
    const allowed = policy.allowLoopbackHttp ? 'https:// (or http://localhost in development)' : 'https://';
    throw invalidRequest(`${field} must use ${allowed}; got "${url.protocol}//${url.host}".`);
  }
  const literal = ipLiteral(url.hostname);
  const why = literal && addressRefusal(literal, { allowLoopback: policy.allowLoopbackHttp });
  if (why) throw invalidRequest(`${field} is refused: ${why}. Webhooks must reach a public address.`);
  return url.toString();
}

/** Also resolves the host, refusing names that point inside the network. */
export async function checkWebhookHost(url: string, intake: WebhookIntake, field = 'webhook.url'): Promise<void> {
  const why = await hostRefusal(new URL(url), { allowLoopback: intake.allowLoopbackHttp }, intake.lookupHost);
  if (why) throw invalidRequest(`${field} is refused: ${why}. Webhooks must reach a public address.`);
}

export function checkEventKinds(value: unknown, field: string): WebhookEventKind[] {
  const help = `${field} must be a non-empty array of ${WEBHOOK_EVENT_KINDS.map((k) => `"${k}"`).join(', ')}.`;
  if (!Array.isArray(value) || value.length === 0) throw invalidRequest(help);
  for (const kind of value) {
    if (!WEBHOOK_EVENT_KINDS.includes(kind)) throw invalidRequest(`${help} Unknown: ${JSON.stringify(kind)}.`);
  }
  return WEBHOOK_EVENT_KINDS.filter((kind) => value.includes(kind));
}

/** The inline webhook as the client sent it, checked for form; the secret is still plaintext here. */
export interface InlineWebhookRequest {
  url: string;
  secret?: string;
  events?: WebhookEventKind[];
}

const FIELD_HELP = 'The webhook field must be a JSON object such as {"url":"https://example.com/hook","secret":"<32+ bytes>","events":["job.completed"]}';

/**
 * The `webhook` form field: `{ "url": string, "secret"?: string, "events"?: [...] }`.
 * An empty url means "no webhook for this submission", as the spec allows.
 */
export function parseWebhookField(raw: string, policy: WebhookUrlPolicy): InlineWebhookRequest | null {
  const { url, secret, events } = parseJson(inlineWebhook, raw, 'webhook', `${FIELD_HELP}.`) as Partial<InlineWebhookRequest> & { url: string };
  if (url.trim() === '') return null;
  const request: InlineWebhookRequest = { url: checkWebhookUrl(url.trim(), policy) };
  if (secret !== undefined) request.secret = checkSuppliedSecret(secret, 'webhook.secret');
  if (events !== undefined) request.events = checkEventKinds(events, 'webhook.events');
  return request;
}

/** Checks the host and encrypts the secret: what is stored on the job. */
export async function sealInlineWebhook(request: InlineWebhookRequest, intake: WebhookIntake, projectId: string): Promise<WebhookTarget> {
  await checkWebhookHost(request.url, intake);
  const target: WebhookTarget = { url: request.url };
  if (request.events) target.events = request.events;
  if (request.secret !== undefined) target.secret = await sealSecret(intake.cipher, request.secret, projectId);
  return target;
}
