// Format detection. The bytes decide; the filename and the client's content
// type only choose between readings of the same bytes (Markdown, CSV or plain
// text). ZIP containers are told apart by their member names, read from the
// central directory without inflating anything. What names each format is
// its descriptor's signature (format.ts); the order of the steps here, and
// the registry's order within a step, keep each reading's precedence.

import { CompoundFile } from '../containers/compound-file.ts';
import { decodeText, detectEncoding, looksLikeText } from '../containers/text-decoding.ts';
import { isGzip } from '../containers/gzip.ts';
import { isTar, SafeTar } from '../containers/tar.ts';
import { isZip, SafeZip } from '../containers/zip.ts';
import type { FormatDescriptor, StreamNames } from './format.ts';
import { FORMATS, type Format } from './registry.ts';
import { hasHeader, hasMagic, startsWith } from './signatures.ts';
import { ExtractionError, type ExtractInput } from './types.ts';

export type { Format } from './registry.ts';

export interface Detected {
  format: Format;
  mime_type: string;
}

export const SUPPORTED_FORMATS =
  'PDF, DOCX, DOC, XLSX, XLS, PPTX, PPT, ODT, ODS, ODP, EPUB, RTF, HTML, XML, LaTeX, CSV, TSV, EML, MSG and mbox (e-mail), Markdown, plain text, PNG/JPEG/TIFF images (by OCR), and ZIP or TAR archives of these, gzipped or not';

/** Formats recognised only to say what the file is when refusing it. */
const KNOWN_BINARY: Array<{ magic: number[]; name: string }> = [
  { magic: [0x47, 0x49, 0x46, 0x38], name: 'a GIF image' },
  { magic: [0x52, 0x61, 0x72, 0x21], name: 'a RAR archive' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf], name: 'a 7-Zip archive' },
];

/** Packages that name themselves OpenDocument but are of a kind not read (drawings, formulas, charts). */
const OPENDOCUMENT = 'application/vnd.oasis.opendocument.';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function detect(input: ExtractInput): Detected {
  const { bytes } = input;
  if (bytes.length === 0) throw new ExtractionError('empty_file', 'The file is empty (0 bytes).');
  const found = (d: FormatDescriptor<Format>): Detected => ({ format: d.name, mime_type: d.mime_type });
  // A ZIP's signature at byte 0 decides before a header window: an archive whose first
  // member is a stored (uncompressed) PDF has "%PDF-" within its first 1024 bytes.
  if (isZip(bytes)) return found(zipFormat(bytes));
  // A TAR's first member may be a PDF whose header stands within the first 1024 bytes: the archive decides first.
  if (isTar(bytes)) return found(tarFormat(bytes));
  const gzipped = isGzip(bytes) ? FORMATS.find((d) => d.signature.gzip) : undefined;
  if (gzipped) return found(gzipped);
  const headed = FORMATS.find(({ signature: { header } }) => header && hasHeader(bytes, header));
  if (headed) return found(headed);
  const magic = FORMATS.find(({ signature }) => hasMagic(bytes, signature));
  if (magic) return found(magic);
  if (startsWith(bytes, CFB_MAGIC)) return found(compoundFormat(bytes));
  const known = KNOWN_BINARY.find(({ magic }) => startsWith(bytes, magic));
  if (known) throw unsupported(`the file is ${known.name}`);
  if (!looksLikeText(bytes)) throw unsupported('the file is not a recognised document type and not text');
  return found(textFormat(input));
}

function zipFormat(bytes: Uint8Array): FormatDescriptor<Format> {
  const zip = new SafeZip(bytes);
  // ODF and EPUB name themselves in a first, stored "mimetype" member (some writers store it compressed, or later).
  const mimetype = zip.entries.find((e) => e.name === 'mimetype' && (e.method === 0 || e.method === 8) && e.compressedSize < 200);
  if (mimetype) {
    const type = Buffer.from(zip.readEntry(mimetype)).toString('latin1').trim();
    const named = FORMATS.find((d) => d.signature.zipMimetype === type);
    if (named) return named;
    if (type.startsWith(OPENDOCUMENT)) throw unsupported(`the file is an OpenDocument file of type ${type}`);
  }
  // An XPS document is a package of pages of positioned glyphs, not an archive of documents: its parts read as one would be junk.
  if (zip.entries.some((e) => /(^|\/)[^/]+\.fdseq$/i.test(e.name))) throw unsupported('the file is an XPS document (XML Paper Specification); print it to PDF and submit the PDF');
  if (zip.has('xl/workbook.bin')) throw unsupported('the file is an Excel binary workbook (.xlsb); save it as .xlsx and submit that');
  const claimed =
    FORMATS.find((d) => d.signature.zipMembers?.(zip)) ?? FORMATS.find((d) => d.signature.archiveMembers?.(zip.names())) ?? FORMATS.find((d) => d.signature.anyZip);
  if (!claimed) throw unsupported('the file is a ZIP archive');
  return claimed;
}

function tarFormat(bytes: Uint8Array): FormatDescriptor<Format> {
  const names = new SafeTar(bytes).names();
  const claimed = FORMATS.find((d) => d.signature.archiveMembers?.(names)) ?? FORMATS.find((d) => d.signature.anyTar);
  if (!claimed) throw unsupported('the file is a TAR archive');
  return claimed;
}

/**
 * Compound files (DOC, XLS, PPT, MSG, encrypted OOXML) are told apart by
 * their top-level stream names. When the directory cannot be read, the
 * names are looked for in the raw bytes, so a damaged file still reaches its
 * reader and fails there saying what is wrong with it.
 */
function compoundFormat(bytes: Uint8Array): FormatDescriptor<Format> {
  let names: string[] | null = null;
  let damage: ExtractionError | null = null;
  try {
    names = new CompoundFile(bytes, 'The Office 97-2003 file').names.map((n) => n.toUpperCase());
  } catch (err) {
    if (!(err instanceof ExtractionError)) throw err;
    damage = err;
  }
  const streams: StreamNames = {
    has: (name) => (names ? names.includes(name.toUpperCase()) : hasUtf16(bytes, name)),
    hasPrefix: (prefix) => (names ? names.some((n) => n.startsWith(prefix.toUpperCase())) : hasUtf16(bytes, prefix)),
    directory: names !== null,
  };
  // Encrypted OOXML is a compound file holding an "EncryptedPackage" stream.
  if (streams.has('EncryptedPackage')) {
    throw new ExtractionError('encrypted_file', 'The document is password-protected (an encrypted Office file); remove the password and resubmit.');
  }
  const claimed = FORMATS.find((d) => d.signature.compoundStreams?.(streams));
  if (claimed) return claimed;
  if (damage) throw damage;
  throw unsupported('the file is an Office compound file that is not a Word, Excel, PowerPoint or Outlook document');
}

/** Compound-file stream names are UTF-16LE in the directory. */
function hasUtf16(bytes: Uint8Array, name: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(name, 'utf16le'));
}

function textFormat(input: ExtractInput): FormatDescriptor<Format> {
  const hinted = nameHint(input);
  if (hinted?.signature.names?.decides) return hinted;
  const head = headText(input.bytes);
  const sniffed = FORMATS.find((d) => d.signature.sniff?.(head, d === hinted)) ?? FORMATS.find((d) => d.signature.anyText);
  if (!sniffed) throw unsupported('the file is text of no recognised format');
  return sniffed;
}

function headText(bytes: Uint8Array): string {
  const { encoding } = detectEncoding(bytes);
  const width = encoding.startsWith('utf-32') ? 4 : encoding.startsWith('utf-16') ? 2 : 1;
  return decodeText(bytes.subarray(0, 4096 * width)).text;
}

function nameHint({ filename, contentType }: ExtractInput): FormatDescriptor<Format> | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const ext = /\.([a-z0-9]+)$/i.exec(filename.trim())?.[1]?.toLowerCase();
  return FORMATS.find(({ signature: { names } }) => names && ((ext !== undefined && names.extensions.includes(ext)) || names.contentTypes.includes(type)));
}

export function unsupported(what: string): ExtractionError {
  return new ExtractionError('unsupported_format', `Unsupported format: ${what}. Supported formats: ${SUPPORTED_FORMATS}.`);
}
