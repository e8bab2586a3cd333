import { describe, expect, it } from 'vitest';
import { countDecodedCodePoints, decodeText } from '../../../lambdas/extract/text.ts';

const SAMPLE = 'Grüße, “quotes” – and a 😀 emoji.\nSecond line.';

function utf16(s: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const units = [...(bom ? '\ufeff' : ''), ...s].join('');
  const out = new Uint8Array(units.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < units.length; i++) view.setUint16(i * 2, units.charCodeAt(i), littleEndian);
  return out;
}

function utf32(s: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const cps = [...(bom ? '\ufeff' : '') + s].map((c) => c.codePointAt(0)!);
  const out = new Uint8Array(cps.length * 4);
  const view = new DataView(out.buffer);
  cps.forEach((cp, i) => view.setUint32(i * 4, cp, littleEndian));
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);
const withBom = (bytes: Uint8Array) => new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);

describe('decodeText', () => {
  it('reads UTF-8 without a BOM', () => {
    expect(decodeText(utf8(SAMPLE))).toEqual({ text: SAMPLE, encoding: 'utf-8' });
  });

  it('reads UTF-8 with a BOM and strips the BOM', () => {
    expect(decodeText(withBom(utf8(SAMPLE)))).toEqual({ text: SAMPLE, encoding: 'utf-8' });
  });

  it.each([
    ['utf-16le', 'with', true, true],
    ['utf-16le', 'without', true, false],
    ['utf-16be', 'with', false, true],
    ['utf-16be', 'without', false, false],
  ] as const)('reads %s %s a BOM', (encoding, _, littleEndian, bom) => {
    expect(decodeText(utf16(SAMPLE, littleEndian, bom))).toEqual({ text: SAMPLE, encoding });
  });

  it('reads UTF-32LE with a BOM', () => {
    expect(decodeText(utf32(SAMPLE, true, true))).toEqual({ text: SAMPLE, encoding: 'utf-32le' });
  });

  it('reads UTF-32BE without a BOM from its NUL pattern', () => {
    expect(decodeText(utf32(SAMPLE, false, false))).toEqual({ text: SAMPLE, encoding: 'utf-32be' });
  });

  it('reads Windows-1252, including its 0x80-0x9F punctuation', () => {
    const bytes = new Uint8Array([0x93, ...utf8('Hello'), 0x94, 0x20, ...utf8('caf'), 0xe9, 0x20, 0x80, 0x85]);
    expect(decodeText(bytes)).toEqual({ text: '“Hello” café €…', encoding: 'windows-1252' });
  });

  it('falls back to Windows-1252 when UTF-8 is invalid anywhere in the file', () => {
    const bytes = new Uint8Array([...utf8('naïve '.repeat(100)), 0xe9]);
    const { text, encoding } = decodeText(bytes);
    expect(encoding).toBe('windows-1252');
    expect(text.endsWith('é')).toBe(true);
  });

  it('keeps a second BOM as content: only the leading one is a signature', () => {
    expect(decodeText(withBom(utf8('\ufeffx'))).text).toBe('\ufeffx');
  });
});

describe('countDecodedCodePoints', () => {
  const cases: Array<[string, Uint8Array]> = [
    ['UTF-8 with astral characters', utf8(SAMPLE)],
    ['UTF-8 with a BOM', withBom(utf8(SAMPLE))],
    ['UTF-16LE', utf16(SAMPLE, true, true)],
    ['UTF-16BE without a BOM', utf16(SAMPLE, false, false)],
    ['UTF-16LE with a lone surrogate and an odd trailing byte', new Uint8Array([0xff, 0xfe, 0x41, 0, 0x00, 0xd8, 0x42, 0, 0x43])],
    ['UTF-32LE', utf32(SAMPLE, true, true)],
    ['UTF-32LE with an invalid code point and a partial unit', new Uint8Array([0xff, 0xfe, 0, 0, 0x41, 0, 0, 0, 0, 0, 0x11, 0, 0x42, 0])],
    ['Windows-1252', new Uint8Array([0x93, 0x41, 0x94, 0xe9])],
  ];
  it.each(cases)('matches the decoded length for %s', (_, bytes) => {
    expect(countDecodedCodePoints(bytes)).toBe([...decodeText(bytes).text].length);
  });
});
