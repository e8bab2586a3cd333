import { invalidRequest } from './errors.ts';

// Requests are checked by ajv (JSON Schema 2020-12, with formats and $ref),
// compiled ahead of time by `npm run build:validators` into
// validators/. The same schema objects are published in the
// OpenAPI document, so what the handlers accept and what the document says
// cannot drift apart. This module turns ajv's first error into a sentence
// naming the field, as the API's 400s always have.

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
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
};
type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** One error as ajv reports it (the fields this module reads). */
export type SchemaError = { instancePath: string; schemaPath: string; keyword: string; params: Record<string, unknown>; message?: string; parentSchema?: JsonSchema };
/** A compiled validator: ajv's, or its standalone code in validators/. */
export type Validator = ((value: unknown) => boolean) & { errors?: SchemaError[] | null };

/** Where a value broke its schema, and how, in words a caller can act on. */
export class SchemaViolation extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

const describe = (types: string[]) => types.map((t) => (t === 'object' ? 'an object' : t === 'array' ? 'an array' : t === 'integer' ? 'a whole number' : `a ${t}`)).join(' or ');

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  'date-time': 'a date and time such as 2025-01-31T12:00:00Z',
  date: 'a date such as 2025-01-31',
  uri: 'an absolute URI',
  email: 'an email address',
};

/** Field paths read `webhook.url` and `pages[0]`; a JSON request body's own fields are named bare (`url`). */
const child = (path: string, name: string) => (/^\d+$/.test(name) ? `${path}[${name}]` : path === 'body' ? name : `${path}.${name}`);
const fieldPath = (root: string, pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(child, root);

/** Turns ajv's failing error (the last of `errors`, those before it being its alternatives' errors) into a SchemaViolation. */
function explain(errors: SchemaError[], path: string): SchemaViolation {
  const error = errors[errors.length - 1]!;
  const at = fieldPath(path, error.instancePath);
  const p = error.params;
  switch (error.keyword) {
    case 'anyOf':
    case 'oneOf': {
      // Each alternative failed on its own first error; say each, in order.
      const branches = new Map<string, SchemaError[]>();
      for (const e of errors.slice(0, -1)) {
        const branch = e.schemaPath.startsWith(`${error.schemaPath}/`) ? e.schemaPath.slice(error.schemaPath.length + 1).split('/')[0]! : undefined;
        if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), e]);
      }
      const problems = [...branches.values()].map((branchErrors) => explain(branchErrors, path).problem);
      return new SchemaViolation(at, problems.length ? problems.join(', or ') : 'must match one of its allowed shapes');
    }
    case 'type':
      return new SchemaViolation(at, `must be ${describe(Array.isArray(p.type) ? (p.type as string[]) : String(p.type).split(','))}`);
    case 'enum':
      return new SchemaViolation(at, `must be one of ${(p.allowedValues as unknown[]).map((e) => JSON.stringify(e)).join(', ')}`);
    case 'const':
      return new SchemaViolation(at, `must be ${JSON.stringify(p.allowedValue)}`);
    case 'required':
      return new SchemaViolation(child(at, String(p.missingProperty)), 'is required');
    case 'additionalProperties': {
      const known = Object.keys(error.parentSchema?.properties ?? {});
      return new SchemaViolation(child(at, String(p.additionalProperty)), `is not a known field (known: ${known.join(', ')})`);
    }
    case 'minLength':
      return new SchemaViolation(at, `must be at least ${p.limit} characters`);
    case 'maxLength':
      return new SchemaViolation(at, `must be at most ${p.limit} characters`);
    case 'pattern':
      return new SchemaViolation(at, `must match ${error.parentSchema?.description ?? p.pattern}`);
    case 'format':
      return new SchemaViolation(at, `must be ${FORMATS[String(p.format)] ?? `a valid ${p.format}`}`);
    case 'minimum':
      return new SchemaViolation(at, `must be at least ${p.limit}`);
    case 'maximum':
      return new SchemaViolation(at, `must be at most ${p.limit}`);
    case 'minItems':
      return new SchemaViolation(at, `must have at least ${p.limit} item(s)`);
    case 'maxItems':
      return new SchemaViolation(at, `must have at most ${p.limit} items`);
    case 'uniqueItems':
      return new SchemaViolation(at, 'must not repeat an item');
    default:
      return new SchemaViolation(at, error.message ?? `breaks the schema's ${error.keyword}`);
  }
}

/** Throws a SchemaViolation naming the first field (as `path.to.field`) that `validate` (compiled by schemaCompiler) refuses. */
export function check(validate: Validator, value: unknown, path: string): void {
  if (validate(value)) return;
  throw explain(validate.errors?.length ? validate.errors : [{ instancePath: '', schemaPath: '#', keyword: 'false schema', params: {} }], path);
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
export function parseJson(validate: Validator, raw: string, field: string, help: string): unknown {
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
    check(validate, value, field);
  } catch (error) {
    if (!(error instanceof SchemaViolation)) throw error;
    throw invalidRequest(`${error.path === 'body' ? 'The body' : error.path} ${error.problem}. ${help}`);
  }
  return value;
}
