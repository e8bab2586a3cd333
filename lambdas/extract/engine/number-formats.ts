// Spreadsheet number formats, enough to show cells as a spreadsheet shows
// them: dates and times, fixed decimals, thousands separators, percentages,
// scientific notation, literal text and currency symbols.

/** Excel's built-in format ids that are not "General". */
export const BUILTIN_FORMATS: Record<number, string> = {
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

export function formatGeneral(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const s = String(Number(n.toPrecision(11)));
  return s;
}

/** `value` shown with the format `code`; the 1904 date system when `date1904`. */
export function formatNumber(value: number, code: string, date1904 = false): string {
  if (!code || /^general$/i.test(code) || code === '@') return formatGeneral(value);
  const sections = splitSections(code);
  let section = sections[0]!;
  let v = value;
  if (value < 0 && sections.length > 1) {
    section = sections[1]!;
    v = -value;
  } else if (value === 0 && sections.length > 2) section = sections[2]!;
  const { body, literal } = clean(section);
  if (isDateFormat(body)) return formatDate(v, body, date1904);
  return formatFixed(v, body, literal, value < 0 && sections.length > 1);
}

function splitSections(code: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i]!;
    if (ch === '"') quoted = !quoted;
    if (ch === '\\' && !quoted) {
      cur += ch + (code[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === ';' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Drops colours and conditions, turns [$€-407] into €; literal text becomes \u0001-free segments. */
function clean(section: string): { body: string; literal: boolean } {
  let body = '';
  let literal = false;
  for (let i = 0; i < section.length; i++) {
    const ch = section[i]!;
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      body += '\u0001' + section.slice(i + 1, end < 0 ? undefined : end) + '\u0002';
      literal = true;
      i = end < 0 ? section.length : end;
    } else if (ch === '\\') {
      body += '\u0001' + (section[i + 1] ?? '') + '\u0002';
      i++;
    } else if (ch === '[') {
      const end = section.indexOf(']', i);
      const inner = section.slice(i + 1, end < 0 ? undefined : end);
      if (inner.startsWith('$')) body += '\u0001' + inner.slice(1).split('-')[0] + '\u0002';
      else if (/^(h+|m+|s+)$/i.test(inner)) body += `[${inner}]`;
      i = end < 0 ? section.length : end;
    } else if (ch === '_' || ch === '*') {
      i++; // padding directives: a space's width, or fill
      if (ch === '_') body += ' ';
    } else body += ch;
  }
  return { body, literal };
}

function isDateFormat(body: string): boolean {
  const bare = body.replace(/\u0001[^\u0002]*\u0002/g, '');
  return /[dmyhs]/i.test(bare.replace(/E\+|E-/g, '')) && !/[0#?]/.test(bare.replace(/s\.0+/g, ''));
}

function formatFixed(v: number, body: string, _literal: boolean, negSection: boolean): string {
  const bare = body.replace(/\u0001[^\u0002]*\u0002/g, '');
  const percent = (bare.match(/%/g) ?? []).length;
  let n = v * 100 ** percent;
  const m = /[0#?][0#?,]*(?:\.[0#?]*)?(?:E[+-][0#]+)?|\.[0#?]+/.exec(body);
  if (!m) return body.replace(/[\u0001\u0002]/g, '') || formatGeneral(v);
  const pattern = m[0];
  // Trailing commas scale by thousands.
  const scale = /,+(?=\.|$)/.exec(pattern.replace(/E[+-][0#]+$/, ''));
  if (scale) n /= 1000 ** scale[0].length;
  const decimals = (/\.([0#?]*)/.exec(pattern)?.[1] ?? '').length;
  let shown: string;
  let minus = false;
  if (/E[+-]/.test(pattern)) {
    shown = Math.abs(n).toExponential(decimals).replace(/e([+-])(\d)$/, 'E$10$2').replace('e', 'E');
    minus = n < 0 && !negSection;
  } else {
    shown = Math.abs(n).toFixed(decimals);
    if (/0,0|#,#|#,0/.test(pattern)) {
      const [int, frac] = shown.split('.');
      shown = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac !== undefined ? '.' + frac : '');
    }
    // "#" left of the point shows no leading zero.
    if (!/0(?=[^.]*(\.|$))/.test(pattern.split('.')[0]!) && shown.startsWith('0.')) shown = shown.slice(1);
    minus = n < 0 && !negSection && Number(shown.replace(/,/g, '')) !== 0;
  }
  const out = body.slice(0, m.index) + shown + body.slice(m.index + pattern.length);
  // Without a section of its own for negatives, the minus leads the whole text, before a currency sign or a label ("-$366.60").
  return (minus ? '-' : '') + out.replace(/\u0001([^\u0002]*)\u0002/g, '$1').trim();
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A spreadsheet serial date as a JavaScript time (UTC). */
export function serialToDate(serial: number, date1904 = false): Date {
  // 1900 system: day 1 is 1900-01-01 and the fictitious 1900-02-29 (day 60) is counted.
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial;
  return new Date(Date.UTC(1899, 11, 30) + Math.round(days * 86400000));
}

function formatDate(serial: number, body: string, date1904: boolean): string {
  const d = serialToDate(serial, date1904);
  const ampm = /AM\/PM|A\/P/i.test(body);
  const tokens = /\u0001[^\u0002]*\u0002|\[h+\]|\[m+\]|\[s+\]|yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|AM\/PM|A\/P|\.0+|./gi;
  const parts = body.match(tokens) ?? [];
  let out = '';
  parts.forEach((tok, i) => {
    const lower = tok.toLowerCase();
    // "m" after an hour or before a second means minutes.
    const prev = parts.slice(0, i).reverse().find((p) => /^[hs]|^\[[hs]/i.test(p) || /^[dy]/i.test(p));
    const next = parts.slice(i + 1).find((p) => /^[hs]|^\[[hs]|^[dy]/i.test(p));
    const minute = (lower === 'm' || lower === 'mm') && ((prev && /^h|^\[h/i.test(prev)) || (next && /^s/i.test(next)));
    const h24 = d.getUTCHours();
    switch (true) {
      case tok.startsWith('\u0001'):
        out += tok.slice(1, -1);
        break;
      case lower === 'yyyy':
        out += d.getUTCFullYear();
        break;
      case lower === 'yy':
        out += String(d.getUTCFullYear() % 100).padStart(2, '0');
        break;
      case lower === 'mmmmm':
        out += MONTHS[d.getUTCMonth()]![0];
        break;
      case lower === 'mmmm':
        out += MONTHS[d.getUTCMonth()];
        break;
      case lower === 'mmm':
        out += MONTHS[d.getUTCMonth()]!.slice(0, 3);
        break;
      case minute:
        out += lower === 'mm' ? String(d.getUTCMinutes()).padStart(2, '0') : d.getUTCMinutes();
        break;
      case lower === 'mm':
        out += String(d.getUTCMonth() + 1).padStart(2, '0');
        break;
      case lower === 'm':
        out += d.getUTCMonth() + 1;
        break;
      case lower === 'dddd':
        out += DAYS[d.getUTCDay()];
        break;
      case lower === 'ddd':
        out += DAYS[d.getUTCDay()]!.slice(0, 3);
        break;
      case lower === 'dd':
        out += String(d.getUTCDate()).padStart(2, '0');
        break;
      case lower === 'd':
        out += d.getUTCDate();
        break;
      case /^\[h+\]$/.test(lower):
        out += Math.floor(serial * 24);
        break;
      case /^\[m+\]$/.test(lower):
        out += Math.floor(serial * 1440);
        break;
      case /^\[s+\]$/.test(lower):
        out += Math.floor(serial * 86400);
        break;
      case lower === 'hh' || lower === 'h': {
        const h = ampm ? h24 % 12 || 12 : h24;
        out += lower === 'hh' ? String(h).padStart(2, '0') : h;
        break;
      }
      case lower === 'ss':
        out += String(d.getUTCSeconds()).padStart(2, '0');
        break;
      case lower === 's':
        out += d.getUTCSeconds();
        break;
      case lower === 'am/pm':
        out += h24 < 12 ? 'AM' : 'PM';
        break;
      case lower === 'a/p':
        out += h24 < 12 ? 'A' : 'P';
        break;
      case tok.startsWith('.'):
        out += '.' + String(d.getUTCMilliseconds()).padStart(3, '0').slice(0, tok.length - 1);
        break;
      default:
        out += tok;
    }
  });
  return out.trim();
}
