// Format detection. The bytes decide; the filename and the client's content
// type only choose between readings of the same bytes (Markdown, CSV or plain
// text). ZIP containers are told apart by their member names, read from the
// central directory without inflating anything.

import { CompoundFile } from '../containers/compound-file.ts';
import { decodeText, detectEncoding, looksLikeText } from '../containers/text-decoding.ts';
import { ExtractionError, type ExtractInput } from './types.ts';
import { isZip, SafeZip } from '../containers/zip.ts';

export type Format =
  | 'pdf'
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'odt'
  | 'ods'
  | 'epub'
  | 'zip'
  | 'html'
  | 'csv'
  | 'tsv'
  | 'eml'
  | 'rtf'
  | 'text'
  | 'markdown'
  | 'png'
  | 'jpeg'
  | 'tiff'
  | 'msg'
  | 'doc'
  | 'xls'
  | 'ppt';

export interface Detected {
  format: Format;
  mime_type: string;
}

export const MIME_TYPES: Record<Format, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  epub: 'application/epub+zip',
  zip: 'application/zip',
  html: 'text/html',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  eml: 'message/rfc822',
  rtf: 'application/rtf',
  text: 'text/plain',
  markdown: 'text/markdown',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  msg: 'application/vnd.ms-outlook',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

export const SUPPORTED_FORMATS =
  'PDF, DOCX, DOC, XLSX, XLS, PPTX, PPT, ODT, ODS, EPUB, RTF, HTML, CSV, TSV, EML and MSG (e-mail), Markdown, plain text, PNG/JPEG/TIFF images (by OCR), and ZIP archives of these';

/** Formats recognised only to say what the file is when refusing it. */
const KNOWN_BINARY: Array<{ magic: number[]; name: string }> = [
  { magic: [0x47, 0x49, 0x46, 0x38], name: 'a GIF image' },
  { magic: [0x1f, 0x8b], name: 'a gzip archive' },
  { magic: [0x52, 0x61, 0x72, 0x21], name: 'a RAR archive' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf], name: 'a 7-Zip archive' },
];

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d];

/** Acrobat accepts a PDF header anywhere in the first 1024 bytes (but a ZIP signature at byte 0 wins: see detect). */
const PDF_HEADER_WINDOW = 1024;

export function detect(input: ExtractInput): Detected {
  const { bytes } = input;
  if (bytes.length === 0) throw new ExtractionError('empty_file', 'The file is empty (0 bytes).');
  const found = (format: Format): Detected => ({ format, mime_type: MIME_TYPES[format] });
  // A ZIP's signature at byte 0 decides before the PDF header window: an archive whose first
  // member is a stored (uncompressed) PDF has "%PDF-" within its first 1024 bytes.
  if (isZip(bytes) && !startsWith(bytes, PDF_MAGIC)) return found(zipFormat(bytes));
  if (hasPdfHeader(bytes)) return found('pdf');
  if (startsWith(bytes, [0x7b, 0x5c, 0x72, 0x74, 0x66])) return found('rtf');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return found('png');
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return found('jpeg');
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return found('tiff');
  if (startsWith(bytes, CFB_MAGIC)) return found(compoundFormat(bytes));
  const known = KNOWN_BINARY.find(({ magic }) => startsWith(bytes, magic));
  if (known) throw unsupported(`the file is ${known.name}`);
  if (!looksLikeText(bytes)) throw unsupported('the file is not a recognised document type and not text');
  const head = headText(bytes);
  const hint = nameHint(input);
  if (hint === 'csv' || hint === 'tsv' || hint === 'markdown') return found(hint);
  // A flat OpenDocument text (.fodt): the package's parts in one XML document.
  if (/<office:document[\s>]/.test(head) && /office:mimetype="application\/vnd\.oasis\.opendocument\.text"/.test(head)) return found('odt');
  if (looksLikeHtml(head) || (hint === 'html' && /<[a-z!]/i.test(head))) return found('html');
  if (looksLikeEmail(head) || (hint === 'eml' && /^[\w-]+:/m.test(head))) return found('eml');
  return found('text');
}

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PDF_HEADER_WINDOW));
  return /%PDF-\d\.\d/.test(head.toString('latin1'));
}

function zipFormat(bytes: Uint8Array): Format {
  const zip = new SafeZip(bytes);
  // ODF and EPUB name themselves in a first, stored "mimetype" member.
  const mimetype = zip.entries.find((e) => e.name === 'mimetype' && e.method === 0 && e.compressedSize < 200);
  if (mimetype) {
    const type = Buffer.from(zip.readEntry(mimetype)).toString('latin1').trim();
    if (type === 'application/vnd.oasis.opendocument.text') return 'odt';
    if (type === 'application/vnd.oasis.opendocument.spreadsheet') return 'ods';
    if (type === 'application/epub+zip') return 'epub';
    if (type.startsWith('application/vnd.oasis.opendocument.')) throw unsupported(`the file is an OpenDocument file of type ${type}`);
  }
  if (zip.has('word/document.xml')) return 'docx';
  if (zip.has('xl/workbook.xml')) return 'xlsx';
  if (zip.has('ppt/presentation.xml')) return 'pptx';
  if (zip.has('META-INF/container.xml') && zip.names().some((n) => n.endsWith('.opf'))) return 'epub';
  return 'zip';
}

/**
 * Compound files (DOC, XLS, PPT, MSG, encrypted OOXML) are told apart by
 * their top-level stream names. When the directory cannot be read, the
 * names are looked for in the raw bytes, so a damaged file still reaches its
 * reader and fails there saying what is wrong with it.
 */
function compoundFormat(bytes: Uint8Array): Format {
  let names: string[] | null = null;
  let damage: ExtractionError | null = null;
  try {
    names = new CompoundFile(bytes, 'The Office 97-2003 file').names.map((n) => n.toUpperCase());
  } catch (err) {
    if (!(err instanceof ExtractionError)) throw err;
    damage = err;
  }
  const has = (name: string) => (names ? names.includes(name.toUpperCase()) : hasUtf16(bytes, name));
  // Encrypted OOXML is a compound file holding an "EncryptedPackage" stream.
  if (has('EncryptedPackage')) {
    throw new ExtractionError('encrypted_file', 'The document is password-protected (an encrypted Office file); remove the password and resubmit.');
  }
  // MSG properties live in "__substg1.0_*" streams.
  if (names ? names.some((n) => n.startsWith('__SUBSTG1.0_')) : hasUtf16(bytes, '__substg1.0_')) return 'msg';
  if (has('WordDocument')) return 'doc';
  if (has('Workbook') || (names !== null && has('Book'))) return 'xls';
  if (has('PowerPoint Document')) return 'ppt';
  if (damage) throw damage;
  throw unsupported('the file is an Office compound file that is not a Word, Excel, PowerPoint or Outlook document');
}

/** Compound-file stream names are UTF-16LE in the directory. */
function hasUtf16(bytes: Uint8Array, name: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(name, 'utf16le'));
}

function headText(bytes: Uint8Array): string {
  const { encoding } = detectEncoding(bytes);
  const width = encoding.startsWith('utf-32') ? 4 : encoding.startsWith('utf-16') ? 2 : 1;
  return decodeText(bytes.subarray(0, 4096 * width)).text;
}

function looksLikeHtml(head: string): boolean {
  const start = head.replace(/^\uFEFF?\s*(<!--[\s\S]*?-->\s*)*/, '');
  return /^<!doctype\s+html|^<html[\s>]/i.test(start) || /<(html|head|body)[\s>]/i.test(head.slice(0, 1024));
}

const MAIL_HEADER = /^(from|to|cc|subject|date|received|return-path|mime-version|message-id|delivered-to|reply-to|content-type|x-[\w-]+):/i;

/** An RFC 822 message starts with header fields, several of them mail-specific, before the first blank line. */
function looksLikeEmail(head: string): boolean {
  const block = head.split(/\r?\n\r?\n/, 1)[0]!;
  const lines = block.split(/\r?\n/).filter((l) => !/^[ \t]/.test(l));
  if (lines.length < 2) return false;
  const fields = lines.filter((l) => /^[\x21-\x39\x3b-\x7e]+:/.test(l));
  const mail = lines.filter((l) => MAIL_HEADER.test(l));
  return fields.length === lines.length && mail.length >= 2 && mail.some((l) => /^(from|to|subject|received|message-id|date):/i.test(l));
}

function nameHint({ filename, contentType }: ExtractInput): Format | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const ext = /\.([a-z0-9]+)$/i.exec(filename.trim())?.[1]?.toLowerCase();
  if (ext === 'md' || ext === 'markdown' || type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (ext === 'csv' || type === 'text/csv') return 'csv';
  if (ext === 'tsv' || ext === 'tab' || type === 'text/tab-separated-values') return 'tsv';
  if (ext === 'html' || ext === 'htm' || ext === 'xhtml' || type === 'text/html') return 'html';
  if (ext === 'eml' || type === 'message/rfc822') return 'eml';
  return null;
}

export function unsupported(what: string): ExtractionError {
  return new ExtractionError('unsupported_format', `Unsupported format: ${what}. Supported formats: ${SUPPORTED_FORMATS}.`);
}
