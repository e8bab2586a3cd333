// Text a PDF shows outside its page content: filled-in form fields (a widget's
// value, or its field's when the widget is a kid of it; a choice field's
// choice; a checkbox or radio button as ☒ or ☐) and free-text notes. PDFium's
// text page holds only the content stream, so these words are put among the
// page's own where their boxes stand: after the word left of them on their
// line ("Name: Ada Lovelace"), or after the last word above them.

import { withBuffer, type Pdfium } from './pdfium.ts';
import type { Word } from './words.ts';

/** FPDF_ANNOT_* (fpdf_annot.h). */
export const ANNOT = { link: 2, freeText: 3, popup: 16, widget: 20 } as const;
/** FPDF_FORMFIELD_* (fpdf_formfill.h). */
export const FIELD = { pushButton: 1, checkbox: 2, radio: 3, combo: 4, list: 5, text: 6, signature: 7 } as const;
/** FPDF_OBJECT_STRING: a value that is text, not a name (a checkbox's /Yes). */
const STRING_VALUE = 3;

/** Annotations read per page at most (a page of thousands is a drawing, not a form). */
export const MAX_ANNOTATIONS = 2000;

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
            const type = m.FPDFAnnot_GetFormFieldType(form, annot);
            // A checkbox's or radio button's value is a name ("Yes", "Off"): a reader sees a box, ticked or not.
            if (type === FIELD.checkbox || type === FIELD.radio) value = m.FPDFAnnot_IsChecked(form, annot) ? '☒' : '☐';
            else if (type === FIELD.text || type === FIELD.combo || type === FIELD.list) {
              const bytes = m.FPDFAnnot_GetFormFieldValue(form, annot, buf, 4096);
              if (bytes > 2) value = m.pdfium.UTF16ToString(buf).replace(/\s+/g, ' ').trim();
            }
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

/** The page's words with `extra` put where a reader meets them: after the word left of each on its line, or the last word above it. */
export function placeAmong(words: readonly Word[], extra: readonly Word[]): Word[] {
  const out = [...words];
  for (const e of extra) {
    let at = -1;
    let right = -Infinity;
    for (let i = 0; i < out.length; i++) {
      const w = out[i]!;
      const overlap = Math.min(w.top, e.top) - Math.max(w.bottom, e.bottom);
      if (overlap > 0.4 * Math.min(w.top - w.bottom, e.top - e.bottom) && w.x1 <= e.x0 + 1 && w.x1 > right) [at, right] = [i, w.x1];
    }
    if (at < 0) for (let i = 0; i < out.length; i++) if (out[i]!.bottom >= e.top - 1) at = i;
    // Its place in the content order is its neighbour's, so lines and tables sort it there.
    e.first = e.last = at >= 0 ? out[at]!.last : -1;
    out.splice(at + 1, 0, e);
  }
  return out;
}
