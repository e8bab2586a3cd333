// Format detection. The bytes decide; the filename and the client's content
// type only choose between readings of the same bytes (Markdown vs text).

import { looksLikeText } from './text.ts';
import { ExtractionError, type ExtractInput } from './types.ts';

export type Format = 'pdf' | 'text' | 'markdown';

export interface Detected {
  format: Format;
  mime_type: string;
}

export const SUPPORTED_FORMATS = 'PDF, plain text and Markdown';

/** Formats recognised only to say what the file is when refusing it. */
const KNOWN_BINARY: Array<{ magic: number[]; name: string }> = [
  { magic: [0x50, 0x4b, 0x03, 0x04], name: 'a ZIP container (DOCX, XLSX, PPTX, EPUB or ZIP)' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], name: 'a legacy Office file (DOC, XLS, PPT or MSG)' },
  { magic: [0x89, 0x50, 0x4e, 0x47], name: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], name: 'a JPEG image' },
  { magic: [0x47, 0x49, 0x46, 0x38], name: 'a GIF image' },
  { magic: [0x49, 0x49, 0x2a, 0x00], name: 'a TIFF image' },
  { magic: [0x4d, 0x4d, 0x00, 0x2a], name: 'a TIFF image' },
  { magic: [0x1f, 0x8b], name: 'a gzip archive' },
  // RTF is ASCII, but its text is buried in control words: reading it as plain text would mislead.
  { magic: [0x7b, 0x5c, 0x72, 0x74, 0x66], name: 'an RTF document' },
];

/** Acrobat accepts a PDF header anywhere in the first 1024 bytes. */
const PDF_HEADER_WINDOW = 1024;

export function detect(input: ExtractInput): Detected {
  const { bytes } = input;
  if (bytes.length === 0) throw new ExtractionError('empty_file', 'The file is empty (0 bytes).');
  if (hasPdfHeader(bytes)) return { format: 'pdf', mime_type: 'application/pdf' };
  const known = KNOWN_BINARY.find(({ magic }) => magic.every((b, i) => bytes[i] === b));
  if (known) throw unsupported(`the file is ${known.name}`);
  if (!looksLikeText(bytes)) throw unsupported('the file is neither a PDF nor text');
  if (isMarkdownHint(input)) return { format: 'markdown', mime_type: 'text/markdown' };
  return { format: 'text', mime_type: 'text/plain' };
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PDF_HEADER_WINDOW));
  return /%PDF-\d\.\d/.test(head.toString('latin1'));
}

function isMarkdownHint({ filename, contentType }: ExtractInput): boolean {
  if (/\.(md|markdown)$/i.test(filename.trim())) return true;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'text/markdown' || type === 'text/x-markdown';
}

function unsupported(what: string): ExtractionError {
  return new ExtractionError('unsupported_format', `Unsupported format: ${what}. Supported formats: ${SUPPORTED_FORMATS}.`);
}
