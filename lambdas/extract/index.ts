// The extraction engine's public entry, for the handlers, the local server,
// the benches and the SDK: what to call and what it returns. The engine
// itself is under engine/, the container readers under containers/, and one
// folder per family of formats under formats/.

export { countPages, extract, ExtractionError, SUPPORTED_FORMATS } from './engine/extract.ts';
export type { Chunk, DocumentMetadata, Element, ExtractInput, ExtractionConfig, ExtractionResult, FailedSection, FormatContext, Table } from './engine/extract.ts';
