import { describe, expect, it } from 'vitest';
import { readPart } from '../../../lambdas/core/aggregate.ts';
import { objectMembers, parseMember } from '../../../lambdas/core/json-members.ts';
import type { PartRef } from '../../../lambdas/core/ports.ts';

const bytes = (value: unknown, space?: number) => Buffer.from(JSON.stringify(value, null, space));

describe('the members of a stored JSON object, found without parsing the others', () => {
  it('finds every member whatever its strings and nesting hold, in compact and spaced JSON', () => {
    const value = {
      content: 'quotes " and \\\\" backslashes \\\\ , braces } ] { [ colons : and é 🙂',
      metadata: { pages: 2, nested: { deep: [1, { x: '"}' }] }, empty: {}, none: [] },
      tables: [{ rows: [['a\\\\', 'b"'], ['', '}']] }],
      n: -1.5e3,
      t: true,
      f: false,
      z: null,
      '"odd" key': 'v',
    };
    for (const space of [undefined, 2]) {
      const json = bytes(value, space);
      const members = objectMembers(json);
      expect([...members.keys()]).toEqual(Object.keys(value));
      for (const [key, range] of members) expect(parseMember(json, range)).toEqual(value[key as keyof typeof value]);
      // A nested object's members, from its own opening brace.
      const inner = objectMembers(json, members.get('metadata')![0]);
      expect(parseMember(json, inner.get('nested')!)).toEqual(value.metadata.nested);
    }
    expect(objectMembers(bytes({})).size).toBe(0);
  });

  it('refuses what is not an object, or is cut short', () => {
    expect(() => objectMembers(bytes([1, 2]))).toThrow(SyntaxError);
    expect(() => objectMembers(bytes([1, 2]))).toThrow(/expected an object/);
    expect(() => objectMembers(Buffer.from('{"a": "unterminated'))).toThrow(/end of a string/);
    expect(() => objectMembers(Buffer.from('{"a": [1, 2'))).toThrow(/end of a container/);
  });
});

describe('a stored part read for the members a pass of the merge needs', () => {
  const ref: PartRef = { index: 3, first_page: 5, last_page: 6, key: 'parts/p/j/3.json' };
  const result = { content: 'text', metadata: { pages: 2 }, tables: [], chunks: [{ index: 0 }], elements: [{ type: 'paragraph' }] };
  const stored = bytes({ index: 3, first_page: 5, last_page: 6, ok: true, result });

  it('gives the result whole, or only the members asked for (those the result has)', () => {
    expect(readPart(ref, stored)).toEqual({ ...ref, ok: true, result });
    expect(readPart(ref, stored, ['content', 'chunks'])).toEqual({ ...ref, ok: true, result: { content: 'text', chunks: [{ index: 0 }] } });
    // The chunk worker's measure of the part comes with it, read without the result.
    const measure = { pages: 2, chars: 4, tables: 0, chunks: 1, cells: 0 };
    expect(readPart(ref, bytes({ index: 3, first_page: 5, last_page: 6, ok: true, measure, result }), [])).toEqual({ ...ref, ok: true, measure, result: {} });
    const withoutElements = bytes({ index: 3, first_page: 5, last_page: 6, ok: true, result: { content: 'x' } });
    expect(readPart(ref, withoutElements, ['elements'])).toEqual({ ...ref, ok: true, result: {} });
  });

  it('says why a part cannot be used: missing, another part, or a failed chunk', () => {
    expect(readPart(ref, null, ['content'])).toMatchObject({ ok: false, error: 'The part for pages 5-6 is missing.' });
    expect(readPart(ref, bytes({ index: 3, first_page: 7, last_page: 8, ok: true, result }), ['content'])).toMatchObject({ ok: false, error: expect.stringMatching(/covers other pages \(7-8\)/) });
    expect(readPart(ref, bytes({ index: 3, first_page: 5, last_page: 6, ok: false, error: 'damaged' }), ['content'])).toMatchObject({ ok: false, error: 'damaged' });
  });
});
