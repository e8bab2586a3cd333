// The `config` form field of POST /v1/extract: what to extract and how to
// shape it. Every mistake is a 400 that names the field to fix.

import { DEFAULT_CONFIG, type ExtractionConfig } from '../extract/engine/types.ts';
import { invalidRequest } from './errors.ts';
import { parseJson } from './json-schema.ts';
import { validate as extractionConfig } from './validators/extraction-config.js';

/** Page numbers past this are refused; no document we accept has more pages. */
export const MAX_PAGE_NUMBER = 100_000;

const HELP =
  'config is a JSON object with optional "output" ("text" or "markdown"), "pages" (e.g. "1-5,8"), ' +
  '"ocr" ("auto", "always" or "never"), "chunking" ({ "strategy": "page"|"section"|"size", "max_chars": n, "overlap": n }), ' +
  '"elements" (true or false), "keep_page_furniture" (true or false) and "comments" (true or false).';

export function parseExtractionConfig(value: string): ExtractionConfig {
  // Shape first, against the schema the OpenAPI document publishes; then what a schema cannot say.
  const raw = parseJson(extractionConfig, value, 'config', HELP) as Partial<Omit<ExtractionConfig, 'pages'>> & {
    pages?: unknown;
    chunking?: Partial<ExtractionConfig['chunking']>;
  };
  const config: ExtractionConfig = { ...DEFAULT_CONFIG, chunking: { ...DEFAULT_CONFIG.chunking } };
  if (raw.output !== undefined) config.output = raw.output;
  if (raw.ocr !== undefined) config.ocr = raw.ocr;
  if (raw.elements !== undefined) config.elements = raw.elements;
  if (raw.keep_page_furniture !== undefined) config.keep_page_furniture = raw.keep_page_furniture;
  if (raw.comments !== undefined) config.comments = raw.comments;
  if (raw.pages !== undefined && raw.pages !== null) config.pages = parsePageRanges(raw.pages);
  if (raw.chunking?.strategy !== undefined) config.chunking.strategy = raw.chunking.strategy;
  if (raw.chunking?.max_chars !== undefined) config.chunking.max_chars = raw.chunking.max_chars;
  if (raw.chunking?.overlap !== undefined) {
    config.chunking.overlap = integer(raw.chunking.overlap, 0, Math.floor(config.chunking.max_chars / 2), 'config.chunking.overlap');
  }
  return config;
}

/** "1-5,8" (or [1, 2, 8]) to ascending, distinct page numbers. */
export function parsePageRanges(value: unknown): number[] {
  const field = 'config.pages';
  const pages = new Set<number>();
  const add = (n: number) => {
    if (pages.size >= MAX_PAGE_NUMBER) throw bad(field, `selects more than ${MAX_PAGE_NUMBER} pages`);
    pages.add(n);
  };
  if (Array.isArray(value)) {
    for (const v of value) add(integer(v, 1, MAX_PAGE_NUMBER, field));
  } else if (typeof value === 'string') {
    const parts = value.split(',').map((p) => p.trim());
    for (const part of parts) {
      const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
      if (!m) throw bad(field, `has "${part}", which is not a page number or a range like "3-7"`);
      const from = Number(m[1]);
      const to = m[2] === undefined ? from : Number(m[2]);
      if (from < 1 || to > MAX_PAGE_NUMBER) throw bad(field, `must number pages from 1 to ${MAX_PAGE_NUMBER}`);
      if (to < from) throw bad(field, `has the range "${part}", which ends before it starts`);
      for (let n = from; n <= to; n++) add(n);
    }
  } else throw bad(field, 'must be a string like "1-5,8" or an array of page numbers');
  if (pages.size === 0) throw bad(field, 'selects no pages');
  return [...pages].sort((a, b) => a - b);
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], field: string): T {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  throw bad(field, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
}

function integer(v: unknown, min: number, max: number, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(field, `must be an integer from ${min} to ${max}`);
  return v;
}

function bad(field: string, problem: string) {
  return invalidRequest(`${field} ${problem}. ${HELP}`);
}

/** Ascending, distinct page numbers as compact ranges ("1-5,8"): what a job record stores, read back with parsePageRanges. */
export function formatPageRanges(pages: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    parts.push(j === i ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
