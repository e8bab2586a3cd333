// Text a PDF shows only in annotations' appearances: a stamp ("APPROVED"), a
// watermark annotation ("DRAFT"), a signature's appearance ("Digitally signed
// by ..."), a button's caption. PDFium's text page holds the content stream
// alone, and the text objects of an appearance give no text without one. So
// the page is copied into a scratch document, its own content and the
// annotations read otherwise (form fields' values, free-text notes:
// annotations.ts) taken out, the appearances left flattened into its
// content as a viewer draws them (hidden ones stay out), and that page's
// words read. Only a page with such an annotation, one whose appearance
// holds text, is copied.

import { ANNOT, FIELD, MAX_ANNOTATIONS } from './annotations.ts';
import { PAGE_OBJECT, withBuffer, type Pdfium } from './pdfium.ts';
import { pageWords, type Word } from './words.ts';

/** Annotations whose text annotationWords reads, or that show nothing of their own. */
const READ_ELSEWHERE = new Set<number>([ANNOT.link, ANNOT.freeText, ANNOT.popup]);
/** Fields whose widgets show no value of their own: a button's caption, a signature's appearance. */
const SHOWN_FIELDS = new Set<number>([FIELD.pushButton, FIELD.signature]);
/** FPDFPage_Flatten's FLAT_NORMALDISPLAY, and its FLATTEN_SUCCESS. */
const NORMAL_DISPLAY = 0;
const FLATTENED = 1;
/** How deep form XObjects inside an appearance are searched for text. */
const MAX_DEPTH = 4;

/** Raw exports: the wrapped calls convert every argument. */
interface AppearanceExports {
  FPDFAnnot_GetObjectCount(annot: number): number;
  FPDFAnnot_GetObject(annot: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
}

/**
 * The words of the page's annotation appearances that no other reading gives, in page space (y up), numbered
 * from `first`; none where the page has no such annotation.
 */
export function appearanceWords(m: Pdfium, doc: number, index: number, page: number, form: number, first: number): Word[] {
  const shown = shownAnnotations(m, page, form);
  if (shown.size === 0) return [];
  const scratch = m.FPDF_CreateNewDocument();
  if (!scratch) return [];
  try {
    const imported = withBuffer(m, 4, (indexes) => {
      m.pdfium.HEAP32[indexes >> 2] = index;
      return m.FPDF_ImportPagesByIndex(scratch, doc, indexes, 1, 0);
    });
    if (!imported || !flattenShown(m, scratch, shown)) return [];
    const copy = m.FPDF_LoadPage(scratch, 0);
    if (!copy) return [];
    const textPage = m.FPDFText_LoadPage(copy);
    try {
      const count = textPage ? m.FPDFText_CountChars(textPage) : 0;
      return count > 0 ? pageWords(m, textPage, count).map((w) => ({ ...w, first: first + w.first, last: first + w.last })) : [];
    } finally {
      if (textPage) m.FPDFText_ClosePage(textPage);
      m.FPDF_ClosePage(copy);
    }
  } finally {
    m.FPDF_CloseDocument(scratch);
  }
}

/** Indexes of the page's annotations whose appearance holds text that is read nowhere else. */
function shownAnnotations(m: Pdfium, page: number, form: number): Set<number> {
  const x = m.pdfium.wasmExports as unknown as AppearanceExports;
  const shown = new Set<number>();
  const count = Math.min(m.FPDFPage_GetAnnotCount(page), MAX_ANNOTATIONS);
  for (let i = 0; i < count; i++) {
    const annot = m.FPDFPage_GetAnnot(page, i);
    if (!annot) continue;
    try {
      const subtype = m.FPDFAnnot_GetSubtype(annot);
      if (READ_ELSEWHERE.has(subtype)) continue;
      if (subtype === ANNOT.widget && !(form && SHOWN_FIELDS.has(m.FPDFAnnot_GetFormFieldType(form, annot)))) continue;
      const objects = x.FPDFAnnot_GetObjectCount(annot);
      if (holdsText(x, objects, (k) => x.FPDFAnnot_GetObject(annot, k), 0)) shown.add(i);
    } finally {
      m.FPDFPage_CloseAnnot(annot);
    }
  }
  return shown;
}

function holdsText(x: AppearanceExports, count: number, at: (k: number) => number, depth: number): boolean {
  for (let k = 0; k < count; k++) {
    const object = at(k);
    const type = object ? x.FPDFPageObj_GetType(object) : 0;
    if (type === PAGE_OBJECT.text) return true;
    if (type === PAGE_OBJECT.form && depth < MAX_DEPTH && holdsText(x, x.FPDFFormObj_CountObjects(object), (j) => x.FPDFFormObj_GetObject(object, j), depth + 1)) {
      return true;
    }
  }
  return false;
}

/** The scratch document's page with only the `shown` annotations, drawn into its content; false where PDFium could not. */
function flattenShown(m: Pdfium, scratch: number, shown: Set<number>): boolean {
  const page = m.FPDF_LoadPage(scratch, 0);
  if (!page) return false;
  try {
    for (let i = m.FPDFPage_CountObjects(page) - 1; i >= 0; i--) {
      const object = m.FPDFPage_GetObject(page, i);
      if (object && m.FPDFPage_RemoveObject(page, object)) m.FPDFPageObj_Destroy(object);
    }
    // From the last, so the indexes still to visit stay those of the page the set was taken from.
    for (let i = m.FPDFPage_GetAnnotCount(page) - 1; i >= 0; i--) if (!shown.has(i)) m.FPDFPage_RemoveAnnot(page, i);
    return m.FPDFPage_GenerateContent(page) && m.FPDFPage_Flatten(page, NORMAL_DISPLAY) === FLATTENED;
  } finally {
    m.FPDF_ClosePage(page);
  }
}
