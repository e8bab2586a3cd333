import { describe, expect, it } from 'vitest';
import { countDecodedCodePoints, decodeText, looksLikeText } from '../../../lambdas/extract/containers/text-decoding.ts';

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

  it('reads Windows-1252 where no byte pair forms a UTF-8 character, a file ending on an accented letter included', () => {
    expect(decodeText(new Uint8Array([...utf8('Name\nJos'), 0xe9]))).toEqual({ text: 'Name\nJosé', encoding: 'windows-1252' });
    const accents = new Uint8Array([...utf8('caf'), 0xe9, ...utf8(' na'), 0xef, ...utf8('ve '), 0xe0, ...utf8(' la carte')]);
    expect(decodeText(accents)).toEqual({ text: 'café naïve à la carte', encoding: 'windows-1252' });
  });

  it('reads UTF-8 cut inside its last character as UTF-8, the cut character as one U+FFFD', () => {
    const whole = utf8('naïve '.repeat(20) + '€');
    const { text, encoding } = decodeText(whole.subarray(0, whole.length - 1));
    expect(encoding).toBe('utf-8');
    expect(text).toBe('naïve '.repeat(20) + '\ufffd');
  });

  it('reads UTF-8 with a stray byte among its characters as UTF-8, the stray byte as U+FFFD, and counts what it decodes', () => {
    const bytes = new Uint8Array([...utf8('Grüße aus Köln. '.repeat(5)), 0xe9, ...utf8(' Schöne Grüße.')]);
    const { text, encoding } = decodeText(bytes);
    expect(encoding).toBe('utf-8');
    expect(text).toBe('Grüße aus Köln. '.repeat(5) + '\ufffd Schöne Grüße.');
    expect(countDecodedCodePoints(bytes)).toBe([...text].length);
  });

  it('reads a NUL as a space, so a result never holds one', () => {
    expect(decodeText(new Uint8Array([...utf8('before'), 0, ...utf8('after')])).text).toBe('before after');
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

describe('looksLikeText', () => {
  const prose = 'A line of plain prose, long enough to stand for a text file. '.repeat(20);

  it('takes a UTF-16 or UTF-32 file cut inside its last character for text', () => {
    for (const bytes of [utf16(prose, true, true), utf16(prose, false, false), utf32(prose, true, true)]) {
      expect(looksLikeText(bytes.subarray(0, bytes.length - 1))).toBe(true);
    }
  });

  it('takes a text with a stray NUL for text, and refuses one where NULs are more than one character in a hundred', () => {
    const stray = new Uint8Array([...utf8(prose), 0, ...utf8(prose)]);
    expect(looksLikeText(stray)).toBe(true);
    const padded = new Uint8Array([...utf8(prose), ...new Uint8Array(prose.length / 20)]);
    expect(looksLikeText(padded)).toBe(false);
  });

  it('refuses binary data', () => {
    const noise = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
    expect(looksLikeText(noise)).toBe(false);
  });
});

describe('East Asian legacy encodings', () => {
  // Each sentence encoded with Python's codecs (the test builds no encoder of its own).
  const samples: Array<[string, string, string]> = [
    ['shift_jis', '日本語のテキストです。これはテストです。東京は大きい都市です。', '93fa967b8cea82cc8365834c8358836782c582b7814282b182ea82cd83658358836782c582b78142938c8b9e82cd91e582ab82a293738e7382c582b78142'],
    ['euc-kr', '한국어 텍스트입니다. 이것은 시험입니다. 서울은 큰 도시입니다.', 'c7d1b1b9beee20c5d8bdbac6aec0d4b4cfb4d92e20c0ccb0cdc0ba20bdc3c7e8c0d4b4cfb4d92e20bcadbfefc0ba20c5ab20b5b5bdc3c0d4b4cfb4d92e'],
    ['gb18030', '这是中文文本。我们在这里测试编码的检测，中国的城市很大。', 'd5e2cac7d6d0cec4cec4b1bea1a3ced2c3c7d4dad5e2c0efb2e2cad4b1e0c2ebb5c4bcecb2e2a3acd6d0b9fab5c4b3c7cad0badcb4f3a1a3'],
    ['big5', '這是中文文本。我們在這裡測試編碼的檢測，國家的城市很大。', 'b36fac4fa4a4a4e5a4e5a5bba143a7daadcca662b36fb8ccb4fab8d5bd73bd58aabac0cbb4faa141b0eaae61aabaabb0a5ababdca46aa143'],
  ];

  it.each(samples)('detects and decodes %s text, and counts its code points as decoded', (encoding, text, hex) => {
    const bytes = new Uint8Array(Buffer.from(hex, 'hex'));
    expect(decodeText(bytes)).toEqual({ text, encoding });
    expect(countDecodedCodePoints(bytes)).toBe([...text].length);
  });

  it('is extracted as text (not refused as binary), and as a CSV', async () => {
    const { extract } = await import('../../../lambdas/extract/engine/extract.ts');
    const sjis = new Uint8Array(Buffer.from(samples[0]![2], 'hex'));
    const result = await extract({ bytes: sjis, filename: 'notes.txt' });
    expect(result.content).toBe(samples[0]![1]);
    expect(result.metadata).toMatchObject({ format: 'text', encoding: 'shift_jis' });
    // "名前,都市\n田中,東京\n" in Shift-JIS.
    const csv = new Uint8Array(Buffer.from('96bc914f2c93738e730a936392862c938c8b9e0a', 'hex'));
    const table = await extract({ bytes: csv, filename: 'people.csv' });
    expect(table.tables[0]!.rows).toEqual([['名前', '都市'], ['田中', '東京']]);
  });

  it('leaves Western text in Windows-1252 alone, accents after letters included', () => {
    const text = 'Être élève à l’école où Noël était fêté, ça va très bien. Größe übermäßig.';
    const bytes = new Uint8Array(Buffer.from(text.replace('’', "'"), 'latin1'));
    expect(decodeText(bytes)).toEqual({ text: text.replace('’', "'"), encoding: 'windows-1252' });
  });
});
