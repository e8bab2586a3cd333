// Text a PDF shows outside its page content: filled-in form fields (a widget's
// value, or its field's when the widget is a kid of it) and free-text notes.
// PDFium's text page holds only the content stream, so these words are added
// to the page's own, where their boxes stand.

import { withBuffer, type Pdfium } from './pdfium.ts';
import type { Word } from './pdf-words.ts';

/** FPDF_ANNOT_* (fpdf_annot.h). */
const ANNOT = { freeText: 3, widget: 20 } as const;
/** FPDF_FORMFIELD_TEXTFIELD (fpdf_formfill.h). */
const TEXT_FIELD = 6;
/** FPDF_OBJECT_STRING: a value that is text, not a name (a checkbox's /Yes). */
const STRING_VALUE = 3;

/** Annotations read per page at most (a page of thousands is a drawing, not a form). */
const MAX_ANNOTATIONS = 2000;

/**
 * The text of a page's filled form fields and free-text notes, as words
 * after the page's own (`first` onward). `form` is the document's form-fill
 * handle (0 without one): it reads a value a widget inherits from its field.
 */
export function annotationWords(m: Pdfium, page: number, first: number, form: number): Word[] {
  const count = Math.min(m.FPDFPage_GetAnnotCount(page), MAX_ANNOTATIONS);
  const words: Word[] = [];
  withBuffer(m, 4096, (buf) => {
    const text = (annot: number, key: string): string => {
      if (!annot || m.FPDFAnnot_GetValueType(annot, key) !== STRING_VALUE) return '';
      const bytes = m.FPDFAnnot_GetStringValue(annot, key, buf, 4096);
      return bytes > 2 ? m.pdfium.UTF16ToString(buf).replace(/\s+/g, ' ').trim() : '';
    };
    for (let i = 0; i < count; i++) {
      const annot = m.FPDFPage_GetAnnot(page, i);
      if (!annot) continue;
      try {
        const subtype = m.FPDFAnnot_GetSubtype(annot);
        let value = '';
        if (subtype === ANNOT.widget) {
          value = text(annot, 'V');
          if (!value && form) {
            const bytes = m.FPDFAnnot_GetFormFieldValue(form, annot, buf, 4096);
            // A checkbox's or radio button's value is a name ("Yes", "Off"), not text a reader sees as such.
            if (bytes > 2 && m.FPDFAnnot_GetFormFieldType(form, annot) === TEXT_FIELD) value = m.pdfium.UTF16ToString(buf).replace(/\s+/g, ' ').trim();
          }
        } else if (subtype === ANNOT.freeText) value = text(annot, 'Contents');
        if (!value || !m.FPDFAnnot_GetRect(annot, buf)) continue;
        // FS_RECTF: left, top, right, bottom, in page space (y up).
        const f32 = m.pdfium.HEAPF32;
        const [left, top, right, bottom] = [f32[buf >> 2]!, f32[(buf >> 2) + 1]!, f32[(buf >> 2) + 2]!, f32[(buf >> 2) + 3]!];
        const [y0, y1] = [Math.min(top, bottom), Math.max(top, bottom)];
        const size = Math.max(4, Math.min(14, (y1 - y0) * 0.7));
        words.push({
          x0: Math.min(left, right),
          x1: Math.max(left, right),
          top: y1,
          bottom: y0,
          text: value,
          first: first + words.length,
          last: first + words.length,
          size,
          bold: false,
          italic: false,
          mono: false,
          hyphen: false,
          rtlChars: 0,
          spaced: true,
          mcid: -1,
          rotated: undefined,
        });
      } finally {
        m.FPDFPage_CloseAnnot(annot);
      }
    }
  });
  return words;
}
