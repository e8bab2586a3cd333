import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { schemaCompiler, VALIDATORS_DIR, validatorSources } from '../../../bin/build-validators.ts';
import type { ApiError } from '../../../lambdas/core/errors.ts';
import { check, type JsonSchema, parseJson, SchemaViolation, type Validator } from '../../../lambdas/core/json-schema.ts';
import { validate as extractionConfig } from '../../../lambdas/core/validators/extraction-config.js';
import { validate as inlineWebhook } from '../../../lambdas/core/validators/inline-webhook.js';

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
    expect(violation(() => check(inlineWebhook, value, 'webhook'))).toBe(expected);
  });

  it.each([
    [{ pages: '1-5,8' }, 'accepted'],
    [{ pages: [1, 3] }, 'accepted'],
    [{ pages: 5 }, 'config.pages must be a string, or must be an array, or must be a null'],
    [{ chunking: { strategy: 'size', max_chars: 50 } }, 'config.chunking.max_chars must be at least 100'],
    [{ chunking: { max_chars: 1.5 } }, 'config.chunking.max_chars must be a whole number'],
    [{ output: 'html' }, 'config.output must be one of "text", "markdown"'],
  ])('config %j: %s', (value, expected) => {
    expect(violation(() => check(extractionConfig, value, 'config'))).toBe(expected);
  });

  it('turns a violation into a 400 naming the field, and bad JSON into a 400 too', () => {
    const refuse = (raw: string) => {
      try {
        parseJson(inlineWebhook, raw, 'webhook', 'See the README.');
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('accepted');
    };
    expect(refuse('{"url":1}')).toMatchObject({ status: 400, message: 'webhook.url must be a string. See the README.' });
    expect(refuse('{')).toMatchObject({ status: 400, message: 'The webhook field is not valid JSON. See the README.' });
  });

  it('answers 400, not a stack overflow, for 100,000 levels of nested arrays', () => {
    const deep = (levels: number) => `{"url":"https://x","events":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(() => parseJson(inlineWebhook, deep(100_000), 'webhook', 'See the README.')).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/longer than 64 KB/) }));
    expect(() => parseJson(inlineWebhook, deep(30_000), 'webhook', 'See the README.')).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/more than 32 levels deep/) }));
    // The validators' own recursion follows the schema, not the value: a deep value under a field that takes anything passes.
    const validate = schemaCompiler().compile({ type: 'object', additionalProperties: true });
    let value: unknown = [];
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(() => check(validate as Validator, { deep: value }, 'body')).not.toThrow();
  });
});

describe('what the old hand-written checker ignored', () => {
  const verdict = (schema: JsonSchema, value: unknown, path = 'body') => violation(() => check(schemaCompiler().compile(schema) as Validator, value, path));

  it.each([
    [{ type: 'string', format: 'uuid' }, '7d444840-9dc0-11d1-b245-5ffdce74fad2', 'accepted'],
    [{ type: 'string', format: 'uuid' }, 'not-a-uuid', 'body must be a UUID'],
    [{ type: 'string', format: 'date-time' }, '2025-01-31T12:00:00Z', 'accepted'],
    [{ type: 'string', format: 'date-time' }, '2025-02-30T12:00:00Z', 'body must be a date and time such as 2025-01-31T12:00:00Z'],
    [{ type: 'string', format: 'uri' }, 'relative/path', 'body must be an absolute URI'],
    [{ type: 'string', format: 'ipv4' }, '999.1.1.1', 'body must be a valid ipv4'],
  ] as [JsonSchema, unknown, string][])('format %j on %j: %s', (schema, value, expected) => {
    expect(verdict(schema, value)).toBe(expected);
  });

  it('follows $ref, and names the field inside the referenced schema', () => {
    const schema: JsonSchema = {
      $defs: { pageNumber: { type: 'integer', minimum: 1 }, range: { type: 'object', properties: { first: { $ref: '#/$defs/pageNumber' } }, additionalProperties: false } },
      type: 'object',
      properties: { range: { $ref: '#/$defs/range' } },
    };
    expect(verdict(schema, { range: { first: 3 } })).toBe('accepted');
    expect(verdict(schema, { range: { first: 0 } })).toBe('range.first must be at least 1');
    expect(verdict(schema, { range: { last: 3 } }, 'config')).toBe('config.range.last is not a known field (known: first)');
  });

  it('refuses, at compile time, a format ajv does not know instead of ignoring it', () => {
    expect(() => schemaCompiler().compile({ type: 'string', format: 'colour' })).toThrow(/unknown format "colour"/);
  });

  it('lambdas/core/validators/ is what npm run build:validators makes of today\'s schemas', () => {
    const made = validatorSources();
    expect(fs.readdirSync(VALIDATORS_DIR).sort()).toEqual(Object.keys(made).sort());
    for (const [file, source] of Object.entries(made)) {
      expect(fs.readFileSync(path.join(VALIDATORS_DIR, file), 'utf8'), `${file}: run npm run build:validators and commit the result`).toBe(source);
    }
  });
});
