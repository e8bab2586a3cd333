// Loading pdf.js in Node, in any of our three settings (tsx, vitest, one
// esbuild bundle for Lambda), once per worker thread.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let loading: Promise<PdfJs> | undefined;

export function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    if (!canvasAvailable()) installMatrixStub();
    // With the worker module on globalThis, pdf.js runs its "worker" in this thread
    // (we are already inside an isolated worker) and a bundler can follow the import.
    const natives = snapshotBuiltins();
    try {
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      restoreBuiltins(natives);
    }
  })();
  return loading;
}

/**
 * The legacy build carries core-js, which replaces some built-ins that exist
 * natively when they differ from the spec in corners pdf.js never reaches:
 * Array.prototype.push among them, rewritten in JavaScript, on the hottest
 * path of text extraction (it cost a fifth of the time). Polyfills of what is
 * missing stay; native built-ins that were replaced are put back.
 */
type Snapshot = Array<{ target: object; key: PropertyKey; descriptor: PropertyDescriptor }>;

function builtinTargets(): object[] {
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as object;
  return [Array, Array.prototype, Object, Promise, Promise.prototype, Map, Map.prototype, Set, Set.prototype, WeakMap.prototype, String, String.prototype, RegExp.prototype, Math, JSON, typedArray, Object.getPrototypeOf(typedArray) as object, ArrayBuffer.prototype, Function.prototype, globalThis];
}

function snapshotBuiltins(): Snapshot {
  const out: Snapshot = [];
  for (const target of builtinTargets()) {
    for (const key of Reflect.ownKeys(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      if (descriptor && typeof descriptor.value === 'function') out.push({ target, key, descriptor });
    }
  }
  return out;
}

function restoreBuiltins(snapshot: Snapshot): void {
  for (const { target, key, descriptor } of snapshot) {
    const now = Object.getOwnPropertyDescriptor(target, key);
    if (now && now.value !== descriptor.value) {
      try {
        Object.defineProperty(target, key, descriptor);
      } catch {
        // A non-configurable replacement stays; correctness does not depend on it.
      }
    }
  }
}

/**
 * pdf.js builds a DOMMatrix when it loads and, in Node, takes one from the
 * native @napi-rs/canvas package. A single-file bundle cannot carry a native
 * package, and without it the import itself throws. Text extraction never
 * renders, so an affine stub is enough; where the package resolves, pdf.js
 * gets the real one (rendering for OCR will need it).
 */
export function canvasAvailable(): boolean {
  try {
    process.getBuiltinModule('module').createRequire(import.meta.url).resolve('@napi-rs/canvas');
    return true;
  } catch {
    return false;
  }
}

function installMatrixStub(): void {
  const g = globalThis as { DOMMatrix?: unknown };
  if (g.DOMMatrix) return;
  g.DOMMatrix = class AffineMatrix {
    a = 1;
    b = 0;
    c = 0;
    d = 1;
    e = 0;
    f = 0;
    constructor(init?: ArrayLike<number>) {
      if (init && init.length >= 6) [this.a, this.b, this.c, this.d, this.e, this.f] = Array.from(init) as [number, number, number, number, number, number];
    }
    scaleSelf(sx = 1, sy = sx) {
      this.a *= sx;
      this.b *= sx;
      this.c *= sy;
      this.d *= sy;
      return this;
    }
    translateSelf(tx = 0, ty = 0) {
      this.e += this.a * tx + this.c * ty;
      this.f += this.b * tx + this.d * ty;
      return this;
    }
  };
}

/** pdf.js's CMaps (text in CJK fonts) and standard font data when pdfjs-dist is on disk; a bundle may not ship them. */
export function pdfjsDataOptions(): { cMapUrl?: string; cMapPacked?: boolean; standardFontDataUrl?: string } {
  try {
    // import.meta.resolve, not createRequire: a bundle banner often declares createRequire itself.
    const root = dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/package.json')));
    const cmaps = join(root, 'cmaps') + '/';
    const fonts = join(root, 'standard_fonts') + '/';
    return {
      ...(existsSync(cmaps) ? { cMapUrl: cmaps, cMapPacked: true } : {}),
      ...(existsSync(fonts) ? { standardFontDataUrl: fonts } : {}),
    };
  } catch {
    return {};
  }
}
