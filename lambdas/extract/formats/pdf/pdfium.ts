// PDFium (Chrome's PDF engine) compiled to WebAssembly, from @embedpdf/pdfium
// (MIT). Its runtime is started on the first PDF of a worker thread only,
// once, from the module the pool compiled (pdfium-module.ts), or one
// compiled here when the thread was given none.

import { readFile } from 'node:fs/promises';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { registerEngineMemory } from '../../engine/memory.ts';
import { pdfiumModule, wasmPath } from './pdfium-module.ts';

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
  if (loading) return loading;
  loading = (async () => {
    const compiled = pdfiumModule() ?? (await WebAssembly.compile(await readFile(wasmPath())));
    let failed: (error: unknown) => void = () => {};
    const failure = new Promise<never>((_, reject) => (failed = reject));
    const runtime = init({
      // Emscripten's hook for an instance its caller makes (here from the shared module): the exports arrive through `receive`.
      instantiateWasm: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
        WebAssembly.instantiate(compiled, imports)
          .then((instance) => receive(instance, compiled))
          .catch(failed);
        return {};
      },
    } as Parameters<typeof init>[0]);
    const module = (await Promise.race([runtime, failure])) as Pdfium;
    module.PDFiumExt_Init();
    registerEngineMemory(() => heapBytes(module));
    return module;
  })();
  // A failed start is not kept: the thread's next PDF tries again.
  loading.catch(() => (loading = undefined));
  return loading;
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
