import { invalidRequest } from './errors.ts';

// A small JSON Schema (2020-12) checker for the subset our request schemas
// use. The same schema objects are published in the OpenAPI document, so what
// the handlers accept and what the document says cannot drift apart.

export type JsonSchema = {
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly (string | number | boolean | null)[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: JsonSchema[];
  format?: string;
  description?: string;
  examples?: unknown[];
  $ref?: string;
  default?: unknown;
};
type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** Where a value broke its schema, and how, in words a caller can act on. */
export class SchemaViolation extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

const typeOf = (v: unknown): JsonType =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : (typeof v as JsonType);

const describe = (types: JsonType[]) => types.map((t) => (t === 'object' ? 'an object' : t === 'array' ? 'an array' : t === 'integer' ? 'a whole number' : `a ${t}`)).join(' or ');

/** Field paths read `webhook.url`; a JSON request body's own fields are named bare (`url`). */
const child = (path: string, name: string) => (path === 'body' ? name : `${path}.${name}`);

/** Throws a SchemaViolation naming the first field (as `path.to.field`) that breaks `schema`. */
export function check(schema: JsonSchema, value: unknown, path: string): void {
  if (schema.anyOf) {
    const errors: SchemaViolation[] = [];
    for (const option of schema.anyOf) {
      try {
        return check(option, value, path);
      } catch (error) {
        errors.push(error as SchemaViolation);
      }
    }
    throw new SchemaViolation(path, errors.map((e) => e.problem).join(', or '));
  }
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
      throw new SchemaViolation(path, `must be ${describe(types)}`);
    }
  }
  if (schema.enum && !schema.enum.includes(value as string)) {
    throw new SchemaViolation(path, `must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) throw new SchemaViolation(path, `must be at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) throw new SchemaViolation(path, `must be at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
      throw new SchemaViolation(path, `must match ${schema.description ?? schema.pattern}`);
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) throw new SchemaViolation(path, `must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) throw new SchemaViolation(path, `must be at most ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) throw new SchemaViolation(path, `must have at least ${schema.minItems} item(s)`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) throw new SchemaViolation(path, `must have at most ${schema.maxItems} items`);
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) throw new SchemaViolation(path, 'must not repeat an item');
    if (schema.items) value.forEach((item, i) => check(schema.items!, item, `${path}[${i}]`));
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (object[name] === undefined) throw new SchemaViolation(child(path, name), 'is required');
    }
    for (const [name, field] of Object.entries(object)) {
      const known = schema.properties?.[name];
      if (known) check(known, field, child(path, name));
      else if (schema.additionalProperties === false) {
        throw new SchemaViolation(child(path, name), `is not a known field (known: ${Object.keys(schema.properties ?? {}).join(', ')})`);
      } else if (typeof schema.additionalProperties === 'object') check(schema.additionalProperties, field, child(path, name));
    }
  }
}

/** Checked before any JSON is parsed: what a request's JSON may cost. */
export const JSON_LIMITS = { maxChars: 64 * 1024, maxDepth: 32 };

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings do not count); a linear scan, no recursion. */
export function nestingDepth(raw: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Parses a JSON form field or body and checks it against its schema: any
 * mistake is a 400 that names the field and ends with `help`. `field` is the
 * form field's name, or "body" for a JSON request body.
 */
export function parseJson(schema: JsonSchema, raw: string, field: string, help: string): unknown {
  const what = field === 'body' ? 'The body' : `The ${field} field`;
  if (raw.length > JSON_LIMITS.maxChars) {
    throw invalidRequest(`${what} is longer than ${JSON_LIMITS.maxChars / 1024} KB of JSON; what it describes never needs that much. ${help}`);
  }
  if (nestingDepth(raw) > JSON_LIMITS.maxDepth) {
    throw invalidRequest(`${what} nests arrays and objects more than ${JSON_LIMITS.maxDepth} levels deep; what it describes needs at most a few. ${help}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidRequest(`${field === 'body' ? 'The body' : `The ${field} field`} is not valid JSON. ${help}`);
  }
  try {
    check(schema, value, field);
  } catch (error) {
    if (!(error instanceof SchemaViolation)) throw error;
    throw invalidRequest(`${error.path === 'body' ? 'The body' : error.path} ${error.problem}. ${help}`);
  }
  return value;
}
