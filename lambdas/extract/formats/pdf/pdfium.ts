// PDFium (Chrome's PDF engine) compiled to WebAssembly, from @embedpdf/pdfium
// (MIT). Loaded on the first PDF of a worker thread only, once: compiling the
// 4.6 MB module costs about 100 ms, which text-only callers never pay.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { registerEngineMemory } from '../../engine/memory.ts';

/** The runtime's heap views, which the package's types leave out. */
interface Heaps {
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
}

export type Pdfium = WrappedPdfiumModule & { pdfium: Heaps };

let loading: Promise<Pdfium> | undefined;

export function loadPdfium(): Promise<Pdfium> {
  loading ??= (async () => {
    const module = (await init({ wasmBinary: (await readFile(wasmPath())).buffer as ArrayBuffer })) as Pdfium;
    module.PDFiumExt_Init();
    registerEngineMemory(() => heapBytes(module));
    return module;
  })();
  return loading;
}

/**
 * Beside the Lambda bundle (the stack copies it there) or in node_modules
 * (tsx, vitest). The package's own default, a URL beside its script, is
 * neither once esbuild has inlined the script.
 */
function wasmPath(): string {
  const beside = fileURLToPath(new URL('./pdfium.wasm', import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
}

/** Bytes of WebAssembly memory the engine holds now: it only grows, so this is its peak. */
export const heapBytes = (m: Pdfium) => m.pdfium.HEAPU8.byteLength;

/** Copies `bytes` into the engine's heap; the caller frees the pointer once nothing refers to it. */
export function copyIn(m: Pdfium, bytes: Uint8Array): number {
  const ptr = m.pdfium.wasmExports.malloc(Math.max(1, bytes.byteLength));
  if (!ptr) throw new RangeError(`PDFium could not allocate ${bytes.byteLength} bytes`);
  m.pdfium.HEAPU8.set(bytes, ptr);
  return ptr;
}

/** Scratch memory for out-parameters and strings, freed whatever `use` does. */
export function withBuffer<T>(m: Pdfium, bytes: number, use: (ptr: number) => T): T {
  const ptr = m.pdfium.wasmExports.malloc(Math.max(8, bytes));
  if (!ptr) throw new RangeError(`PDFium could not allocate ${bytes} bytes`);
  try {
    return use(ptr);
  } finally {
    m.pdfium.wasmExports.free(ptr);
  }
}

/** FPDF_GetLastError codes (fpdfview.h). */
export const PDFIUM_ERROR = { unknown: 1, file: 2, format: 3, password: 4, security: 5, page: 6 } as const;

/** FPDF_PAGEOBJ_* (fpdf_edit.h). */
export const PAGE_OBJECT = { text: 1, path: 2, image: 3, shading: 4, form: 5 } as const;
