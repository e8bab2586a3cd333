import { describe, expect, it } from 'vitest';
import { extractionConfigSchema, inlineWebhookSchema } from '../../../lambdas/core/api-schemas.ts';
import { ApiError } from '../../../lambdas/core/errors.ts';
import { check, parseJson, SchemaViolation } from '../../../lambdas/core/json-schema.ts';

const violation = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof SchemaViolation) return `${error.path} ${error.problem}`;
    throw error;
  }
  return 'accepted';
};

describe('checking input against the published schemas', () => {
  it.each([
    [{ url: 'https://x' }, 'accepted'],
    [{ url: 'https://x', events: ['job.failed'] }, 'accepted'],
    [{}, 'webhook.url is required'],
    [{ url: 5 }, 'webhook.url must be a string'],
    [{ url: 'https://x', colour: 1 }, 'webhook.colour is not a known field (known: url, secret, events)'],
    [{ url: 'https://x', events: ['job.failed', 'job.failed'] }, 'webhook.events must not repeat an item'],
    [{ url: 'https://x', events: ['nope'] }, 'webhook.events[0] must be one of "job.completed", "job.failed", "job.cancelled"'],
    [[], 'webhook must be an object'],
  ])('inline webhook %j: %s', (value, expected) => {
    expect(violation(() => check(inlineWebhookSchema, value, 'webhook'))).toBe(expected);
  });

  it.each([
    [{ pages: '1-5,8' }, 'accepted'],
    [{ pages: [1, 3] }, 'accepted'],
    [{ pages: 5 }, 'config.pages must be a string, or must be an array, or must be a null'],
    [{ chunking: { strategy: 'size', max_chars: 50 } }, 'config.chunking.max_chars must be at least 100'],
    [{ chunking: { max_chars: 1.5 } }, 'config.chunking.max_chars must be a whole number'],
    [{ output: 'html' }, 'config.output must be one of "text", "markdown"'],
  ])('config %j: %s', (value, expected) => {
    expect(violation(() => check(extractionConfigSchema, value, 'config'))).toBe(expected);
  });

  it('turns a violation into a 400 naming the field, and bad JSON into a 400 too', () => {
    const refuse = (raw: string) => {
      try {
        parseJson(inlineWebhookSchema, raw, 'webhook', 'See the README.');
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('accepted');
    };
    expect(refuse('{"url":1}')).toMatchObject({ status: 400, message: 'webhook.url must be a string. See the README.' });
    expect(refuse('{')).toMatchObject({ status: 400, message: 'The webhook field is not valid JSON. See the README.' });
  });
});
