// Where the sheets of an ODS are in its content.xml. All sheets share that
// one part, so reading some of them (a page selection, a chunk of a large
// spreadsheet) means finding each sheet's <table:table> element by scanning
// the text and parsing only the selected ones. The page count at submission
// uses the same scan, so "sheet n" means the same thing when pages are
// reserved, when a large spreadsheet is planned into chunks, and when a chunk
// reads them. No parser here: page-count.ts must not load one.

const TABLE_NS = 'urn:oasis:names:tc:opendocument:xmlns:table:1.0';

export interface SheetSpan {
  /** UTF-16 offsets of the whole element in content.xml, end exclusive. */
  start: number;
  end: number;
  /** The start tag, for the sheet's name without parsing its rows. */
  startTag: string;
}

/**
 * The outermost table elements, in document order: a table nested in a
 * cell belongs to its sheet, as the whole-document reading has it.
 * Comments, CDATA and quoted attribute values (which may hold '>') are
 * skipped; an element left open at the end of a truncated part runs to the end.
 */
export function odsSheetSpans(xml: string): SheetSpan[] {
  const qname = `${tablePrefix(xml)}table`.replace(/[.]/g, '\\.');
  const token = new RegExp(`<!--|<!\\[CDATA\\[|<(/?)${qname}(?=[\\s/>])`, 'g');
  const spans: SheetSpan[] = [];
  let depth = 0;
  let open: { start: number; startTag: string } | null = null;
  let m: RegExpExecArray | null;
  while ((m = token.exec(xml))) {
    if (m[0] === '<!--' || m[0] === '<![CDATA[') {
      const close = xml.indexOf(m[0] === '<!--' ? '-->' : ']]>', m.index);
      if (close < 0) break;
      token.lastIndex = close + 3;
      continue;
    }
    const end = tagEnd(xml, token.lastIndex);
    token.lastIndex = end;
    if (m[1] === '/') {
      if (depth > 0 && --depth === 0 && open) {
        spans.push({ start: open.start, end, startTag: open.startTag });
        open = null;
      }
    } else if (xml.charCodeAt(end - 2) === 0x2f /* '/' of '/>' */) {
      if (depth === 0) spans.push({ start: m.index, end, startTag: xml.slice(m.index, end) });
    } else {
      if (depth++ === 0) open = { start: m.index, startTag: xml.slice(m.index, end) };
    }
  }
  if (open) spans.push({ start: open.start, end: xml.length, startTag: open.startTag });
  return spans;
}

/** "table:" as declared for the table namespace (any prefix is allowed), "" when it is the default namespace. */
function tablePrefix(xml: string): string {
  const declared = new RegExp(`xmlns(?::([\\w.-]+))?\\s*=\\s*["']${TABLE_NS.replace(/[.]/g, '\\.')}["']`).exec(xml.slice(0, 64 * 1024));
  if (!declared) return 'table:';
  return declared[1] ? `${declared[1]}:` : '';
}

/** Offset just past the '>' that ends the tag whose name ends at `from`. */
function tagEnd(xml: string, from: number): number {
  let i = from;
  while (i < xml.length) {
    const c = xml[i]!;
    if (c === '>') return i + 1;
    if (c === '"' || c === "'") {
      const close = xml.indexOf(c, i + 1);
      if (close < 0) return xml.length;
      i = close + 1;
    } else i++;
  }
  return xml.length;
}
