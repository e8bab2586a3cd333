// How much WebAssembly memory the PDF engine of this thread holds. Kept apart
// from pdfium.ts so the pool can ask without loading the engine: the answer
// is 0 until pdfium.ts has loaded it and registered itself here.

let read: () => number = () => 0;

export const engineMemoryBytes = (): number => read();

export function registerEngineMemory(bytes: () => number): void {
  read = bytes;
}
