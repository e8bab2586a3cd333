// The shapes of every JSON body the API takes or gives, as JSON Schema. The
// request parsers check input against these very objects (compiled by
// ajv into validators/, see json-schema.ts),
// and the OpenAPI document (openapi.ts) publishes them, so the document
// cannot drift from what the handlers accept; the e2e suite checks every
// response it receives against the document, so it cannot drift from what
// they give either.

import type { JsonSchema } from './json-schema.ts';

const EVENT_KINDS = ['job.completed', 'job.failed', 'job.cancelled'] as const;
export const JOB_STATUS_VALUES = ['awaiting_upload', 'pending', 'processing', 'chunking', 'aggregating', 'completed', 'partial_success', 'failed', 'cancelled'] as const;

const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableString: JsonSchema = { type: ['string', 'null'] };
const object = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties), extra = false): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: extra,
});

// ---- Requests -------------------------------------------------------------

export const eventKindsSchema: JsonSchema = { type: 'array', items: { type: 'string', enum: EVENT_KINDS }, minItems: 1, uniqueItems: true };

/** The `webhook` form field of POST /v1/extract (an empty url means none). */
export const inlineWebhookSchema: JsonSchema = object(
  {
    url: { type: 'string', maxLength: 2048, description: 'https:// URL (http://localhost on the local server); empty for none' },
    secret: { type: 'string', minLength: 32, description: 'signing secret, 32 bytes or more' },
    events: eventKindsSchema,
  },
  ['url'],
);

/** The `config` form field of POST /v1/extract. */
export const extractionConfigSchema: JsonSchema = object(
  {
    output: { type: 'string', enum: ['text', 'markdown'] },
    pages: {
      anyOf: [
        // Ranges are read by parsePageRanges, which names the part it cannot read.
        { type: 'string', minLength: 1, description: 'page ranges such as "1-5,8"' },
        { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
        { type: 'null' },
      ],
    },
    ocr: { type: 'string', enum: ['auto', 'always', 'never'] },
    chunking: object(
      {
        strategy: { type: 'string', enum: ['page', 'section', 'size'] },
        max_chars: { type: 'integer', minimum: 100, maximum: 100_000 },
        overlap: { type: 'integer', minimum: 0, maximum: 50_000 },
      },
      [],
    ),
    elements: { type: 'boolean', description: 'false leaves result.elements out (default true)' },
    keep_page_furniture: { type: 'boolean', description: 'true keeps running headers, footers and page numbers in content (default false)' },
    comments: { type: 'boolean', description: 'true adds the review comments of DOCX and ODT documents after their body, with author and anchored text (default false); slide comments and cell notes are always read' },
  },
  [],
);

/** POST /v1/webhooks. */
export const webhookRegistrationSchema: JsonSchema = object(
  {
    url: { type: 'string', minLength: 1, maxLength: 2048, description: 'https:// URL' },
    events: eventKindsSchema,
    secret: { type: ['string', 'null'], description: 'signing secret of 32 bytes or more; generated when absent' },
  },
  ['url', 'events'],
);

/** POST /v1/uploads: a document too large for a direct upload. */
export const uploadRequestSchema: JsonSchema = object(
  {
    filename: { type: 'string', minLength: 1, maxLength: 1024 },
    size: { type: 'integer', minimum: 1, maximum: 500_000_000, description: 'the exact byte size of the document' },
    content_type: { type: 'string', maxLength: 255 },
    webhook: inlineWebhookSchema,
    config: extractionConfigSchema,
  },
  ['filename', 'size'],
);

/**
 * The schemas requests are checked against, by name: `npm run
 * build:validators` compiles each into validators/, inlineWebhook into
 * inline-webhook.js.
 */
export const REQUEST_SCHEMAS = {
  inlineWebhook: inlineWebhookSchema,
  extractionConfig: extractionConfigSchema,
  webhookRegistration: webhookRegistrationSchema,
  uploadRequest: uploadRequestSchema,
} satisfies Record<string, JsonSchema>;

// ---- Responses ------------------------------------------------------------

export const errorSchema = object({ error: { type: 'string' }, message: { type: 'string' } });

export const sandboxKeySchema = object({
  api_key: { type: 'string', pattern: '^sk_sandbox_[0-9A-Za-z]{32}$' },
  pages_remaining: { type: 'integer', minimum: 0 },
  expires_at: isoTime,
});

export const uploadCreatedSchema = object({
  job_id: uuid,
  status: { type: 'string', enum: ['awaiting_upload'] },
  upload_url: { type: 'string', format: 'uri', description: 'PUT the document here, with exactly `size` bytes' },
  expires_at: isoTime,
});

export const acceptedSchema = object({ job_ids: { type: 'array', items: uuid, minItems: 1 }, status: { type: 'string', enum: ['pending'] } });

const tableSchema = object(
  { page: { type: 'integer' }, sheet: { type: 'string' }, rows: { type: 'array', items: { type: 'array', items: { type: 'string' } } }, markdown: { type: 'string' } },
  ['rows', 'markdown'],
);

const bboxSchema: JsonSchema = {
  type: 'array',
  items: { type: 'number' },
  minItems: 4,
  maxItems: 4,
  description: '[x0, y0, x1, y1] in PDF points (1/72 inch), origin at the top-left corner of the page',
};

const chunkSchema = object(
  {
    index: { type: 'integer', minimum: 0 },
    text: { type: 'string' },
    page_start: { type: 'integer', minimum: 1 },
    page_end: { type: 'integer', minimum: 1 },
    char_start: { type: 'integer', minimum: 0 },
    char_end: { type: 'integer', minimum: 0 },
    headings: { type: 'array', items: { type: 'string' }, description: 'the headings above the chunk, outermost first' },
    boxes: {
      type: 'array',
      description: 'PDFs: the boxes of the elements the chunk covers',
      items: object({ page: { type: 'integer', minimum: 1 }, bbox: bboxSchema }, ['page', 'bbox']),
    },
  },
  ['index', 'text', 'page_start', 'page_end', 'char_start', 'char_end', 'headings'],
);

export const ELEMENT_TYPES = [
  'title',
  'heading',
  'paragraph',
  'list_item',
  'table',
  'figure',
  'caption',
  'code',
  'formula',
  'footnote',
  'page_header',
  'page_footer',
] as const;

const elementSchema = object(
  {
    type: { type: 'string', enum: ELEMENT_TYPES },
    text: { type: 'string', description: 'the block as plain text, without Markdown syntax' },
    page: { type: 'integer', minimum: 1 },
    bbox: bboxSchema,
    level: { type: 'integer', minimum: 0, maximum: 6, description: 'headings 1-6; list items their nesting depth from 0' },
    ordered: { type: 'boolean', description: 'list items: numbered or bulleted' },
    table: { type: 'integer', minimum: 0, description: 'tables: index into result.tables' },
    char_start: { type: 'integer', minimum: 0 },
    char_end: { type: 'integer', minimum: 0, description: 'code points into content, end exclusive; empty for blocks left out of content' },
  },
  ['type', 'text', 'page', 'char_start', 'char_end'],
);

const metadataSchema = object(
  {
    format: { type: 'string' },
    mime_type: { type: 'string' },
    pages: { type: 'integer', minimum: 0 },
    pages_total: { type: 'integer', minimum: 0 },
    page_unit: { type: 'string', enum: ['page', 'slide', 'sheet', 'text_page'] },
    title: nullableString,
    author: nullableString,
    subject: nullableString,
    keywords: nullableString,
    creator: nullableString,
    producer: nullableString,
    created_at: nullableString,
    modified_at: nullableString,
    encoding: nullableString,
    language: nullableString,
    char_count: { type: 'integer', minimum: 0 },
    word_count: { type: 'integer', minimum: 0 },
    ocr_pages: { type: 'array', items: { type: 'integer', minimum: 1 } },
    failed_sections: {
      type: 'array',
      description:
        'What could not be read (the job is then partial_success): archive members and attachments by path, objects inside a document, damaged parts of a package by part name (word/styles.xml), and "end of file" for a file cut short that was read as far as it goes.',
      items: object({ name: { type: 'string' }, error: { type: 'string' } }),
    },
    failed_page_ranges: {
      type: 'array',
      description: 'Documents split into chunks: the page ranges of chunks that could not be extracted (the job is then partial_success).',
      items: object({ first_page: { type: 'integer', minimum: 1 }, last_page: { type: 'integer', minimum: 1 }, error: { type: 'string' } }),
    },
    email: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
    sheets: { type: 'array', items: { type: 'string' } },
    page_sizes: {
      type: 'array',
      description: 'PDFs: each extracted page, its width and height in PDF points',
      items: object({ page: { type: 'integer', minimum: 1 }, width: { type: 'number' }, height: { type: 'number' } }),
    },
  },
  ['format', 'mime_type', 'pages', 'char_count', 'word_count', 'ocr_pages'],
);

export const resultSchema = object(
  {
    content: { type: 'string' },
    metadata: metadataSchema,
    tables: { type: 'array', items: tableSchema },
    chunks: { type: 'array', items: chunkSchema },
    elements: { type: 'array', items: elementSchema, description: 'the blocks of the document in reading order; left out with config.elements false' },
  },
  ['content', 'metadata'],
);

export const jobSchema = object(
  {
    id: uuid,
    filename: { type: 'string' },
    status: { type: 'string', enum: JOB_STATUS_VALUES },
    created_at: isoTime,
    updated_at: isoTime,
    pages: { type: 'integer', minimum: 0 },
    progress: object({ pages_done: { type: 'integer', minimum: 0 }, pages_total: { type: 'integer', minimum: 0 } }),
    result: resultSchema,
    result_url: { type: 'string', format: 'uri' },
    error_message: { type: 'string' },
  },
  ['id', 'filename', 'status', 'created_at', 'updated_at'],
);

export const cancelledSchema = object({ id: uuid, status: { type: 'string', enum: ['cancelled'] } });

export const jobPageSchema = object({
  jobs: {
    type: 'array',
    items: object(
      { id: uuid, filename: { type: 'string' }, status: { type: 'string', enum: JOB_STATUS_VALUES }, pages: { type: ['integer', 'null'] }, error_message: { type: 'string' }, created_at: isoTime, updated_at: isoTime },
      ['id', 'filename', 'status', 'pages', 'created_at', 'updated_at'],
    ),
  },
  next_cursor: nullableString,
});

const keyFields = {
  id: { type: 'string' },
  prefix: { type: 'string' },
  last_four: { type: 'string' },
  created_at: isoTime,
  last_used_at: { type: ['string', 'null'] },
  revoked_at: { type: ['string', 'null'] },
  current: { type: 'boolean' },
} satisfies Record<string, JsonSchema>;
export const keyListSchema = object({ keys: { type: 'array', items: object(keyFields) } });
export const keyCreatedSchema = object({ ...keyFields, api_key: { type: 'string', pattern: '^kz_[0-9A-Za-z]{29}$' } });

export const usageSchema = object({ day: { type: 'string' }, month: { type: 'string' }, pages_today: { type: 'integer' }, pages_this_month: { type: 'integer' } });

const webhookFields = {
  id: uuid,
  url: { type: 'string' },
  events: { type: 'array', items: { type: 'string', enum: EVENT_KINDS } },
  secret_fingerprint: { type: 'string' },
  created_at: isoTime,
} satisfies Record<string, JsonSchema>;
export const webhookListSchema = object({ webhooks: { type: 'array', items: object(webhookFields) } });
export const webhookCreatedSchema = object({ ...webhookFields, secret: { type: 'string', description: 'shown this once' } });
export const webhookTestSchema = object(
  { delivered: { type: 'boolean' }, event_id: { type: 'string' }, status_code: { type: ['integer', 'null'] }, duration_ms: { type: 'number' }, error: nullableString },
  ['delivered', 'event_id', 'status_code', 'duration_ms'],
);
export const deliveryListSchema = object({
  deliveries: {
    type: 'array',
    items: object({
      event_id: { type: 'string' },
      event: { type: 'string', enum: EVENT_KINDS },
      webhook_id: { type: ['string', 'null'] },
      url: { type: 'string' },
      attempt: { type: 'integer', minimum: 1 },
      at: isoTime,
      status_code: { type: ['integer', 'null'] },
      duration_ms: { type: 'number' },
      error: nullableString,
      outcome: { type: 'string' },
    }),
  },
});

/** What a webhook receiver gets (SPEC.md section 6): no extracted text, ever. */
export const webhookPayloadSchema = object({
  event_id: { type: 'string' },
  job_id: uuid,
  project_id: uuid,
  status: { type: 'string', enum: ['completed', 'partial_success', 'failed', 'cancelled'] },
  error_message: nullableString,
  timestamp: { type: 'integer' },
  attempt_count: { type: 'integer', minimum: 1, maximum: 5 },
});
