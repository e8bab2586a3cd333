import { describe, expect, it } from 'vitest';
import { ExtractionError } from '../../../lambdas/extract/engine/types.ts';
import { cellLimitMessage, checkUnitLimit, MAX_PDF_PAGES, MAX_SHEETS, MAX_SLIDES } from '../../../lambdas/extract/engine/limits.ts';
import { descriptorOf, type Format } from '../../../lambdas/extract/engine/registry.ts';

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
