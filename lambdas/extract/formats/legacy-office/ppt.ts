// PPT (PowerPoint 97-2003): the "PowerPoint Document" stream of a compound
// file. Like PPTX, one page per slide in presentation order (the live slide
// list, found through Current User and the persist directory, so slides
// deleted or reordered by a fast save are not read from stale copies); each
// slide's text boxes in shape order, then its speaker notes.
//
// Placeholder text (titles, bullets) lives in the slide list, and the
// slide's shapes refer to it; other text boxes hold their own text. Text
// the shapes do not refer to is still read, after theirs.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { CompoundFile, summaryInformation } from '../../containers/compound-file.ts';
import { persistedRecord, pptChildren, pptDocument, pptSlideList, type PptDocument, type PptRecord, type SlideEntry } from './ppt-records.ts';
import { checkUnitLimit, MAX_SLIDES, SLIDE_LIMIT } from '../../engine/limits.ts';
import { ExtractionError, type DraftElement, type FormatOutput } from '../../engine/types.ts';

/** Characters of text read from one presentation; past this it is refused rather than exhausting memory. */
export const MAX_TEXT = 50_000_000;

const WHAT = 'The PowerPoint presentation';

const T = {
  SlideContainer: 0x03ee,
  SlideAtom: 0x03ef,
  NotesContainer: 0x03f0,
  NotesAtom: 0x03f1,
  OutlineTextRefAtom: 0x0f9e,
  TextHeaderAtom: 0x0f9f,
  TextCharsAtom: 0x0fa0,
  TextBytesAtom: 0x0fa8,
  CString: 0x0fba,
  Comment10Container: 0x2ee0,
  ClientTextbox: 0xf00d,
} as const;

/** Atoms that mark a field (slide number, date, header, footer) standing as "*" in the text. */
const FIELD_ATOMS = new Set([0x0fd8, 0x0ff7, 0x0ff8, 0x0ff9, 0x0ffa, 0x1015]);

/** TextHeaderAtom text types. */
const TITLE = 0;
const NOTES = 2;
const OTHER = 4;
const CENTER_TITLE = 6;
/** Body placeholders (body, half body, quarter body): bulleted, as PowerPoint's masters show them. */
const BULLETED = new Set([1, 7, 8]);
const COMMENT = -1;

/** Containers nest this deep at most in real files (groups of groups of shapes included). */
const MAX_DEPTH = 32;

interface Text {
  type: number;
  text: string;
}

export function extractPpt(bytes: Uint8Array, mode: OutputMode, pages: number[] | null = null): FormatOutput {
  const cfb = new CompoundFile(bytes, WHAT);
  const doc = pptDocument(cfb);
  if (doc?.encrypted) throw new ExtractionError('encrypted_file', 'The PowerPoint presentation is password-protected; remove the password and resubmit.');
  if (!doc?.document) {
    throw new ExtractionError(
      'corrupt_file',
      `${WHAT} could not be read: it holds no PowerPoint 97-2003 document (it is damaged, or from PowerPoint 95 or older). Open it in PowerPoint and save it as .pptx.`,
    );
  }
  const slides = pptSlideList(doc, 0);
  checkUnitLimit(SLIDE_LIMIT, slides.length);
  const reader = new SlideReader(doc, cfb);
  const notes = reader.notesIndex();
  const kept = pages ? pages.filter((n) => n >= 1 && n <= slides.length) : slides.map((_, i) => i + 1);
  // A slide listed twice is the same slide twice: its text is read once.
  const done = new Map<number, { text: string; elements: DraftElement[] }>();
  const drafts: DraftElement[] = [];
  const texts = kept.map((number, page) => {
    const entry = slides[number - 1]!;
    const known = done.get(entry.persistId);
    if (known !== undefined) {
      for (const e of known.elements) drafts.push({ ...e, page });
      return reader.charge(known.text);
    }
    const out = new Blocks(mode);
    const container = reader.container(entry.persistId, T.SlideContainer);
    for (const t of reader.texts(entry, container)) {
      if (t.type === TITLE || t.type === CENTER_TITLE) out.heading(t.type === CENTER_TITLE ? 1 : 2, t.text);
      else if (t.type === COMMENT) out.paragraph(`Comment: ${t.text}`);
      else if (BULLETED.has(t.type)) for (const p of paragraphs(t.text)) out.listItem(p, 0, null);
      else for (const p of paragraphs(t.text)) out.paragraph(p);
    }
    const notesEntry = (container && notes.byId.get(reader.notesId(container))) ?? notes.bySlide.get(entry.slideId);
    if (notesEntry) {
      const all = reader.texts(notesEntry, reader.container(notesEntry.persistId, T.NotesContainer));
      // The notes body; the notes page's other placeholders repeat the slide's header and footer.
      const body = all.some((t) => t.type === NOTES) ? all.filter((t) => t.type === NOTES) : all;
      const notesParas = body.flatMap((t) => paragraphs(t.text)).filter((p) => p.trim() !== '');
      notesParas.forEach((p, i) => out.paragraph(i === 0 ? (mode === 'markdown' ? `**Notes:** ${p}` : `Notes: ${p}`) : p));
    }
    const text = reader.charge(out.text());
    done.set(entry.persistId, { text, elements: out.elements });
    for (const e of out.elements) drafts.push({ ...e, page });
    return text;
  });
  return {
    pages: texts,
    pageSeparator: '\n\n',
    unit: 'slide',
    tables: [],
    elements: drafts,
    ...(pages ? { pagesSelected: { total: slides.length, kept } } : {}),
    metadata: summaryInformation(cfb),
  };
}

/** PowerPoint ends paragraphs with CR and breaks lines with VT; other control characters are not text. */
function paragraphs(text: string): string[] {
  return text
    .split(/\r\n?|\n/)
    .map((p) => p.replace(/\x0b/g, '\n').replace(/[\0-\x08\x0c\x0e-\x1f\x7f]/g, ''));
}

class SlideReader {
  private readonly view: DataView;
  /** Records visited in all: each record is read once per page in a sound file, so far more means forged, overlapping containers. */
  private visits: number;
  private chars = MAX_TEXT;

  constructor(
    private readonly doc: PptDocument,
    private readonly cfb: CompoundFile,
  ) {
    this.view = new DataView(doc.stream.buffer, doc.stream.byteOffset, doc.stream.byteLength);
    this.visits = 2 * Math.ceil(doc.stream.length / 8) + 10_000;
  }

  charge(text: string): string {
    this.chars -= text.length;
    if (this.chars < 0) {
      throw new ExtractionError('refused_file', `Refused: the presentation holds more than ${MAX_TEXT.toLocaleString('en-US')} characters of text. Split it into smaller presentations and resubmit.`);
    }
    return text;
  }

  private children(r: PptRecord): PptRecord[] {
    const out = pptChildren(this.doc.stream, r.start, r.end);
    this.visits -= out.length;
    if (this.visits < 0) throw this.cfb.damaged('its slides overlap');
    return out;
  }

  container(persistId: number, type: number): PptRecord | null {
    const r = persistedRecord(this.doc.stream, this.doc.persist, persistId);
    return r?.type === type && r.container ? r : null;
  }

  /** The notes page a slide names in its SlideAtom (0 for none). */
  notesId(slide: PptRecord): number {
    const atom = this.children(slide).find((r) => r.type === T.SlideAtom);
    return atom && atom.end - atom.start >= 20 ? this.view.getUint32(atom.start + 16, true) : 0;
  }

  /** Notes pages by their own id, and by the id of the slide they belong to (for slides that do not name theirs). */
  notesIndex(): { byId: Map<number, SlideEntry>; bySlide: Map<number, SlideEntry> } {
    const byId = new Map<number, SlideEntry>();
    const bySlide = new Map<number, SlideEntry>();
    for (const entry of pptSlideList(this.doc, 2).slice(0, MAX_SLIDES)) {
      byId.set(entry.slideId, entry);
      const notes = this.container(entry.persistId, T.NotesContainer);
      const atom = notes && this.children(notes).find((r) => r.type === T.NotesAtom);
      if (atom && atom.end - atom.start >= 4) bySlide.set(this.view.getUint32(atom.start, true), entry);
    }
    return { byId, bySlide };
  }

  /** A slide's or notes page's text: its shapes' text in order, then outline text no shape referred to. */
  texts(entry: SlideEntry, container: PptRecord | null): Text[] {
    const outline = this.textAtoms(pptChildren(this.doc.stream, entry.start, entry.end));
    const used = new Set<number>();
    const out: Text[] = [];
    if (container) this.walk(container, 0, outline, used, out);
    outline.forEach((t, i) => {
      if (!used.has(i)) out.push(t);
    });
    return out.filter((t) => t.text.trim() !== '');
  }

  private walk(r: PptRecord, depth: number, outline: Text[], used: Set<number>, out: Text[]): void {
    for (const c of this.children(r)) {
      if (c.type === T.ClientTextbox) out.push(...this.textbox(this.children(c), outline, used));
      else if (c.type === T.Comment10Container) {
        const text = this.children(c).find((x) => x.type === T.CString && x.instance === 1);
        if (text) out.push({ type: COMMENT, text: this.utf16(text) });
      } else if (c.container && depth < MAX_DEPTH) this.walk(c, depth + 1, outline, used, out);
    }
  }

  private textbox(records: PptRecord[], outline: Text[], used: Set<number>): Text[] {
    const texts = this.textAtoms(records);
    for (const r of records) {
      if (r.type !== T.OutlineTextRefAtom || r.end - r.start < 4) continue;
      const index = this.view.getInt32(r.start, true);
      const t = outline[index];
      if (t && !used.has(index)) {
        used.add(index);
        texts.push(t);
      }
    }
    // A slide-number, date, header or footer placeholder shows its field as "*".
    if (records.some((r) => FIELD_ATOMS.has(r.type)) && texts.every((t) => t.text.trim() === '*')) return [];
    return texts;
  }

  /**
   * One text per TextHeaderAtom, with the text atom after it (none for an
   * empty placeholder): outline references count TextHeaderAtoms.
   */
  private textAtoms(records: PptRecord[]): Text[] {
    const out: Text[] = [];
    let open: Text | null = null;
    for (const r of records) {
      let text: string;
      if (r.type === T.TextHeaderAtom && r.end - r.start >= 4) {
        open = { type: this.view.getUint32(r.start, true), text: '' };
        out.push(open);
        continue;
      } else if (r.type === T.TextCharsAtom) text = this.utf16(r);
      else if (r.type === T.TextBytesAtom) text = Buffer.from(this.doc.stream.buffer, this.doc.stream.byteOffset + r.start, r.end - r.start).toString('latin1');
      else continue;
      if (open) open.text = text;
      else out.push({ type: OTHER, text });
      open = null;
    }
    return out;
  }

  private utf16(r: PptRecord): string {
    return Buffer.from(this.doc.stream.buffer, this.doc.stream.byteOffset + r.start, (r.end - r.start) & ~1).toString('utf16le');
  }
}
