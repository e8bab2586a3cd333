import { describe, expect, it } from 'vitest';
import { MAX_PDF_PAGES } from '../../../lambdas/extract/pdf.ts';
import { MAX_SLIDES } from '../../../lambdas/extract/pptx.ts';
import { ExtractionError } from '../../../lambdas/extract/types.ts';
import { checkUnitLimit, PLANNED_PDF_PAGES } from '../../../lambdas/extract/unit-limits.ts';

describe('the limits checked when a large document is planned', () => {
  it('are the whole-document limits', () => {
    expect(PLANNED_PDF_PAGES).toBe(MAX_PDF_PAGES);
  });

  it('refuse one unit over, with the whole-document error, and let the limit itself through', () => {
    expect(() => checkUnitLimit('pdf', MAX_PDF_PAGES)).not.toThrow();
    expect(() => checkUnitLimit('pdf', MAX_PDF_PAGES + 1)).toThrow(new ExtractionError('too_many_pages', 'The PDF has 5,001 pages; the limit is 5,000.'));
    expect(() => checkUnitLimit('pptx', MAX_SLIDES + 1)).toThrow('The presentation has 5,001 slides; the limit is 5,000.');
    expect(() => checkUnitLimit('xls', 5001)).toThrow('The workbook has 5,001 sheets; the limit is 5,000.');
    expect(() => checkUnitLimit('csv', 1_000_000)).not.toThrow();
  });
});
