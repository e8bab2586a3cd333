// word-extractor ships no types; doc.ts uses its Word 97-2003 (OLE) reader only.
declare module 'word-extractor/lib/word-ole-extractor.js' {
  interface WordDocument {
    getBody(options?: { filterUnicode?: boolean }): string;
    getFootnotes(options?: { filterUnicode?: boolean }): string;
    getEndnotes(options?: { filterUnicode?: boolean }): string;
    getHeaders(options?: { includeFooters?: boolean; filterUnicode?: boolean }): string;
    getFooters(options?: { filterUnicode?: boolean }): string;
    getAnnotations(options?: { filterUnicode?: boolean }): string;
    getTextboxes(options?: { includeHeadersAndFooters?: boolean; includeBody?: boolean; filterUnicode?: boolean }): string;
  }
  class WordOleExtractor {
    extract(reader: unknown): Promise<WordDocument>;
  }
  export = WordOleExtractor;
}

declare module 'word-extractor/lib/buffer-reader.js' {
  class BufferReader {
    constructor(buffer: Buffer);
    open(): Promise<unknown>;
    close(): Promise<unknown>;
  }
  export = BufferReader;
}
