// The PDF engine's compiled WebAssembly module, apart from its runtime
// (pdfium.ts) so that a pool can compile it without loading the runtime.
// V8 compiles a module's functions as they are first called and recompiles
// the hot ones optimized; one module shared by a pool's workers does that
// once, not in every worker the pool starts (a replacement worker's first
// 13-page PDF: 1.1 s of CPU with a module of its own, 0.87 s with the pool's).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

let shared: WebAssembly.Module | undefined;

/** The module compiled once for this thread and the workers it hands it to (about 20 ms: V8 compiles lazily). */
export function compiledPdfium(): WebAssembly.Module {
  shared ??= new WebAssembly.Module(readFileSync(wasmPath()));
  return shared;
}

/** In a worker thread, before its first PDF: the module the thread that started it compiled. */
export function usePdfiumModule(module: WebAssembly.Module): void {
  shared = module;
}

/** The module this thread was given or compiled, if any. */
export const pdfiumModule = (): WebAssembly.Module | undefined => shared;

/**
 * Beside the Lambda bundle (the stack copies it there) or in node_modules
 * (tsx, vitest). The package's own default, a URL beside its script, is
 * neither once esbuild has inlined the script.
 */
export function wasmPath(): string {
  const beside = fileURLToPath(new URL('./pdfium.wasm', import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve('@embedpdf/pdfium/pdfium.wasm');
}
