import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { createExtractorPool } from '../../../lambdas/extract/engine/pool.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';
import { warmUpPdf } from '../../../lambdas/extract/formats/pdf/warm-up.ts';
import { makePdf } from '../../support/pdf-fixture.ts';

describe('the PDF a prewarmed worker reads before its first job', () => {
  it('takes the layout analysis through headings, paragraphs, lists and running headers and page numbers', async () => {
    const result = await extract({ bytes: warmUpPdf(), filename: 'warm-up.pdf', config: { ...DEFAULT_CONFIG, ocr: 'never' } });
    expect(result.metadata.pages).toBe(2);
    expect(new Set(result.elements?.map((e) => e.type))).toEqual(new Set(['page_header', 'heading', 'paragraph', 'list_item', 'page_footer']));
    expect(result.content).toContain('a hyphenated word');
  });

  it('leaves a prewarmed pool reading jobs as before', async () => {
    const pool = createExtractorPool({ size: 1, timeoutMs: 60_000, maxMemoryMb: 512, prewarm: true });
    try {
      const result = await pool.extract({ bytes: makePdf({ pages: ['The first job after the warm-up.'] }), filename: 'a.pdf' });
      expect(result.content).toContain('The first job after the warm-up.');
    } finally {
      await pool.close();
    }
  });
});
