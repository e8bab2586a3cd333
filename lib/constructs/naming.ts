/** 'extract-worker' -> 'ExtractWorker': construct ids and output names derived from wiring keys. */
export const pascal = (name: string): string =>
  name.replace(/(^|[-_])([a-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());
