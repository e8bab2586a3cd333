// Where DrawingML shapes stand: a shape's box from its transform (a:xfrm,
// or a graphic frame's p:xfrm), and a group's children mapped from the
// group's own child frame onto the slide.

import { child, type XmlElement } from '../../containers/xml.ts';
import type { SlideBox } from '../../engine/slide-order.ts';

/** Maps a group's child coordinates onto the slide: slide = child * scale + offset, per axis. */
export interface Placement {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

export const ON_SLIDE: Placement = { sx: 1, sy: 1, tx: 0, ty: 0 };

/** A shape's transform: its own (p:xfrm of a graphic frame) or its shape properties' (a:xfrm). */
export function xfrmOf(el: XmlElement): XmlElement | undefined {
  if (el.name === 'graphicFrame') return child(el, 'xfrm');
  return child(child(el, 'spPr') ?? child(el, 'grpSpPr') ?? el, 'xfrm');
}

const emu = (v: string | undefined) => Number(v ?? Number.NaN);

export function boxOf(xfrm: XmlElement): SlideBox | null {
  const off = child(xfrm, 'off');
  const ext = child(xfrm, 'ext');
  const [x, y, cx, cy] = [emu(off?.attrs.x), emu(off?.attrs.y), emu(ext?.attrs.cx), emu(ext?.attrs.cy)];
  return [x, y, cx, cy].every(Number.isFinite) ? { x0: x, y0: y, x1: x + cx, y1: y + cy } : null;
}

/** A group's placement composed with its parent's: its children's offsets and sizes are in its own child frame (chOff, chExt). */
export function within(at: Placement, xfrm: XmlElement): Placement {
  const box = boxOf(xfrm);
  const chOff = child(xfrm, 'chOff');
  const chExt = child(xfrm, 'chExt');
  const [ox, oy, cw, ch] = [emu(chOff?.attrs.x), emu(chOff?.attrs.y), emu(chExt?.attrs.cx), emu(chExt?.attrs.cy)];
  if (!box || ![ox, oy, cw, ch].every(Number.isFinite)) return at;
  const sx = cw > 0 ? (box.x1 - box.x0) / cw : 1;
  const sy = ch > 0 ? (box.y1 - box.y0) / ch : 1;
  return { sx: at.sx * sx, sy: at.sy * sy, tx: at.tx + at.sx * (box.x0 - ox * sx), ty: at.ty + at.sy * (box.y0 - oy * sy) };
}

/** `box`, in a group's child frame, on the slide. */
export function placedBox(at: Placement, box: SlideBox): SlideBox {
  return { x0: box.x0 * at.sx + at.tx, y0: box.y0 * at.sy + at.ty, x1: box.x1 * at.sx + at.tx, y1: box.y1 * at.sy + at.ty };
}
