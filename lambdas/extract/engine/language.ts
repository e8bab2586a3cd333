// A small language guess from function words: enough to label the common
// European languages of office documents, and silent (null) otherwise.

const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'in', 'is', 'that', 'for', 'it', 'with', 'as', 'was', 'on', 'are', 'this', 'be', 'by', 'not', 'or', 'have'],
  de: ['der', 'die', 'und', 'in', 'den', 'von', 'zu', 'das', 'mit', 'sich', 'des', 'auf', 'für', 'ist', 'im', 'dem', 'nicht', 'ein', 'eine', 'als'],
  fr: ['le', 'la', 'les', 'de', 'des', 'et', 'est', 'un', 'une', 'du', 'dans', 'que', 'qui', 'pour', 'pas', 'sur', 'au', 'avec', 'ce', 'il'],
  es: ['el', 'la', 'de', 'que', 'y', 'en', 'los', 'del', 'se', 'las', 'por', 'un', 'para', 'con', 'no', 'una', 'su', 'al', 'es', 'lo'],
  it: ['il', 'di', 'che', 'e', 'la', 'per', 'un', 'non', 'in', 'una', 'sono', 'del', 'della', 'con', 'si', 'gli', 'le', 'da', 'al', 'è'],
  nl: ['de', 'en', 'van', 'het', 'een', 'in', 'is', 'dat', 'op', 'te', 'zijn', 'met', 'voor', 'niet', 'aan', 'er', 'ook', 'als', 'bij', 'door'],
  pt: ['de', 'que', 'e', 'o', 'a', 'do', 'da', 'em', 'um', 'para', 'com', 'não', 'uma', 'os', 'no', 'se', 'na', 'por', 'mais', 'as'],
};

// One-letter words (a, e, o, y) are shared across languages and say little.
const SETS = Object.entries(STOPWORDS).map(([lang, words]) => [lang, new Set(words.filter((w) => w.length > 1))] as const);
const WORDS = /\p{L}+/gu;

/** ISO 639-1 code, or null when there are too few words or no clear winner. */
export function detectLanguage(text: string): string | null {
  const sample = text.slice(0, 50_000).toLowerCase();
  const words = sample.match(WORDS) ?? [];
  if (words.length < 40) return null;
  const scores = SETS.map(([lang, set]) => {
    let n = 0;
    for (const w of words) if (set.has(w)) n++;
    return [lang, n] as const;
  }).sort((a, b) => b[1] - a[1]);
  const [best, second] = scores;
  if (best![1] < words.length * 0.08 || best![1] < second![1] * 1.5) return null;
  return best![0];
}
