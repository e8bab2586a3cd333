// Checkboxes in Word documents, as the glyph a reader sees: a checkbox
// content control (w14:checkbox in w:sdtPr), a legacy form field
// (w:ffData/w:checkBox), a box picked from a symbol font (w:sym), or one
// typed as a character. ☐ unchecked; ☒ (or the ☑ the document typed) checked.

import { child, type XmlElement } from '../../containers/xml.ts';

const UNCHECKED = '☐';
const CHECKED = '☒';

const on = (el: XmlElement | undefined, fallback: boolean) => (el ? !['0', 'false', 'off'].includes(el.attrs.val ?? 'true') : fallback);

/** The glyph of a checkbox content control (w:sdt), or undefined where the control is something else. */
export function checkboxGlyph(sdt: XmlElement): string | undefined {
  const props = child(sdt, 'sdtPr');
  const box = props && child(props, 'checkbox');
  if (!box) return undefined;
  return on(child(box, 'checked'), false) ? CHECKED : UNCHECKED;
}

/** The glyph of a legacy form checkbox, at the w:fldChar that begins its field. */
export function formCheckbox(fldChar: XmlElement): string | undefined {
  if (fldChar.attrs.fldCharType !== 'begin') return undefined;
  const data = child(fldChar, 'ffData');
  const box = data && child(data, 'checkBox');
  if (!box) return undefined;
  // w:checked is the box's state; without it, the state it was given when made (w:default).
  const checked = child(box, 'checked');
  return on(checked, on(child(box, 'default'), false)) ? CHECKED : UNCHECKED;
}

/** Symbol-font characters that draw a checkbox: Wingdings and Wingdings 2 boxes, empty, ticked and crossed. */
const SYMBOL_BOXES: Record<string, Record<number, string>> = {
  wingdings: { 0xa8: UNCHECKED, 0xfe: '☑', 0xfd: CHECKED },
  'wingdings 2': { 0xa3: UNCHECKED, 0x52: '☑', 0x53: CHECKED, 0x54: CHECKED },
};

/** The checkbox a w:sym draws, if it draws one. */
export function symbolCheckbox(sym: XmlElement): string | undefined {
  const font = (sym.attrs.font ?? '').toLowerCase().trim();
  const code = Number.parseInt(sym.attrs.char ?? '', 16);
  // Symbol fonts' characters are written in the private-use range F000-F0FF or as their byte.
  return Number.isFinite(code) ? SYMBOL_BOXES[font]?.[code & 0xff] : undefined;
}

/** A paragraph opening with a checkbox: its state, the glyph and the text after it. */
export function taskBox(text: string): { checked: boolean; glyph: string; text: string } | undefined {
  const m = /^\s*([☐☑☒])[\s\u00a0]*(?=\S)/.exec(text);
  if (!m) return undefined;
  return { checked: m[1] !== UNCHECKED, glyph: m[1]!, text: text.slice(m[0].length) };
}
