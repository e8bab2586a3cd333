import { describe, expect, it } from 'vitest';
import { ExtractionError } from '../../../lambdas/extract/engine/types.ts';
import { cellLimitMessage, checkReadLimit, checkUnitLimit, MAX_PDF_PAGES, MAX_SHEETS, MAX_SLIDES } from '../../../lambdas/extract/engine/limits.ts';
import { descriptorOf, FORMATS, type Format } from '../../../lambdas/extract/engine/registry.ts';
import { SafeZip, ZIP_LIMITS } from '../../../lambdas/extract/containers/zip.ts';
import { makeZip } from '../../support/office-fixture.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';

const unitLimitOf = (format: Format) => descriptorOf(format).limit;

describe('the page, slide and sheet limits, checked by each format and when a large document is planned', () => {
  it('are 5,000 pages, slides and sheets', () => {
    expect([MAX_PDF_PAGES, MAX_SLIDES, MAX_SHEETS]).toEqual([5000, 5000, 5000]);
  });

  it('refuse one unit over, with the whole-document error, and let the limit itself through', () => {
    expect(() => checkUnitLimit(unitLimitOf('pdf'), MAX_PDF_PAGES)).not.toThrow();
    expect(() => checkUnitLimit(unitLimitOf('pdf'), MAX_PDF_PAGES + 1)).toThrow(new ExtractionError('too_many_pages', 'The PDF has 5,001 pages; the limit is 5,000.'));
    expect(() => checkUnitLimit(unitLimitOf('pptx'), MAX_SLIDES + 1)).toThrow('The presentation has 5,001 slides; the limit is 5,000.');
    expect(() => checkUnitLimit(unitLimitOf('xls'), 5001)).toThrow('The workbook has 5,001 sheets; the limit is 5,000.');
    expect(() => checkUnitLimit(unitLimitOf('ppt'), MAX_SLIDES + 1)).toThrow('The presentation has 5,001 slides; the limit is 5,000.');
    expect(() => checkUnitLimit(unitLimitOf('csv'), 1_000_000)).not.toThrow();
  });

  it('word the cell limit once for every spreadsheet reader and the merge of a large one', () => {
    expect(cellLimitMessage('workbook')).toBe('The workbook has more than 2,000,000 cells; the limit is 2,000,000.');
  });
});

describe('the read limits: a document too large for a worker’s memory is refused before it is parsed', () => {
  const limit = { bytes: 1000, advice: 'Split it and submit the parts.' };

  it('refuses a flat file over its format’s limit, saying how large it may be and what to do', () => {
    const budget = { remaining: ZIP_LIMITS.maxTotalBytes };
    expect(() => checkReadLimit('rtf', limit, new Uint8Array(1000), budget)).not.toThrow();
    const refused = (() => {
      try {
        checkReadLimit('rtf', { bytes: 2_000_000, advice: limit.advice }, new Uint8Array(3_000_000), budget);
      } catch (error) {
        return error as ExtractionError;
      }
    })();
    expect(refused?.code).toBe('out_of_memory');
    expect(refused?.message).toBe("This RTF is 3 MB; RTF files are read whole, and the largest an extraction worker's memory holds is 2 MB. Split it and submit the parts.");
  });

  it('holds a ZIP package’s parts to it as they inflate, whatever size the file itself is', () => {
    const zip = makeZip([
      { name: 'small.xml', data: 'x'.repeat(600) },
      { name: 'more.xml', data: 'y'.repeat(600) },
    ]);
    const budget = { remaining: ZIP_LIMITS.maxTotalBytes };
    checkReadLimit('docx', limit, zip, budget);
    expect(budget.remaining).toBe(1000);
    const reader = new SafeZip(zip, budget);
    expect(reader.readText('small.xml')).toHaveLength(600);
    expect(() => reader.read('more.xml')).toThrow("This DOCX's parts inflate past 0 MB, more than an extraction worker's memory holds while reading them. Split it and submit the parts.");
  });

  it('fails an extraction over it before the reader is loaded', async () => {
    const limit = descriptorOf('html').readLimit!.bytes;
    const page = new TextEncoder().encode(`<html><body>${'<p>a paragraph of text</p>\n'.repeat(Math.ceil(limit / 26) + 1)}</body></html>`);
    await expect(extract({ bytes: page, filename: 'big.html' })).rejects.toMatchObject({ code: 'out_of_memory', message: expect.stringMatching(/^This HTML is \d+ MB; HTML files are read whole, and the largest .* holds is 40 MB\. Split the document/) });
  });

  it('is set for every format read whole, and left to the upload limit where a large document is read in byte ranges or is a picture', () => {
    const unlimited = FORMATS.filter((d) => !d.readLimit).map((d) => d.name);
    expect(unlimited.sort()).toEqual(['csv', 'jpeg', 'markdown', 'pdf', 'png', 'text', 'tiff', 'tsv']);
  });
});
