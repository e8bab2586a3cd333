export { Docex, type DocexOptions, type ExtractOptions, type WaitOptions } from './client.ts';
export * from './errors.ts';
export type { FileData, FileInput } from './files.ts';
export { pollWaits, type Clock, type PollOptions } from './polling.ts';
export { signBody, verifySignature } from './signature.ts';
export * from './types.ts';
