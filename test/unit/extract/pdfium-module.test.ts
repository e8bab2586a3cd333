import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';
import { compiledPdfium, pdfiumModule, usePdfiumModule, wasmPath } from '../../../lambdas/extract/formats/pdf/pdfium-module.ts';
import { loadPdfium } from '../../../lambdas/extract/formats/pdf/pdfium.ts';
import { makePdf } from '../../support/pdf-fixture.ts';

/** A WebAssembly module importing a function the engine's runtime does not provide: instantiating it fails. */
function unlinkableModule(): WebAssembly.Module {
  const name = [...Buffer.from('docex_missing')];
  const imports = [0x01, 0x03, ...Buffer.from('env'), name.length, ...name, 0x00, 0x00];
  return new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02, imports.length, ...imports]));
}

describe('the PDF engine from a module compiled once', () => {
  it('compiles the module once per thread and keeps what a worker was handed', () => {
    expect(compiledPdfium()).toBe(compiledPdfium());
    const handed = new WebAssembly.Module(readFileSync(wasmPath()));
    usePdfiumModule(handed);
    expect(pdfiumModule()).toBe(handed);
    expect(compiledPdfium()).toBe(handed);
  });

  it('fails to start, rather than waiting for ever, on a module it cannot instantiate, and starts on the next PDF from a good one', async () => {
    usePdfiumModule(unlinkableModule());
    await expect(loadPdfium()).rejects.toThrow(/docex_missing|import/i);
    usePdfiumModule(new WebAssembly.Module(readFileSync(wasmPath())));
    const result = await extract({ bytes: makePdf({ pages: ['Read with the shared engine.'] }), filename: 'a.pdf', config: DEFAULT_CONFIG });
    expect(result.content).toContain('Read with the shared engine.');
  });
});
