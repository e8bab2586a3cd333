// "Figure 3.", "Table 2:" in the languages docex reads most: English, German, French, Spanish, Italian,
// Portuguese, Dutch, Russian, Hebrew, Arabic, Chinese and Japanese.

const TABLE_WORDS = 'table|tab|tabelle|tableau|tabla|cuadro|tabella|tabela|tabel|таблица|טבלה|جدول|الجدول|表';
const OTHER_WORDS = 'fig(?:ure)?|chart|exhibit|plate|listing|example|algorithm|scheme|graph|diagram|abbildung|abb|figura|gráfico|quadro|figuur|рис(?:унок)?|איור|תרשים|شكل|الشكل|图|圖|図';

/** The label words as labels are set: "table", "Table", "TABLE" (not any case: the test after the number reads case). */
const cased = (words: string) => [...new Set(words.split('|').flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1), w.toUpperCase()]))].join('|');

/**
 * A label, its number, and a stop, a colon, a dash, the end of the line or a space; not a space before a lower-case
 * word, which makes the label a sentence's subject ("Table 2-2 shows ...", "Abbildung 3 zeigt ...").
 */
const labelled = (words: string) => new RegExp(`^(?:${cased(words)})\\.?\\s*[\\dIVXivx]+(?:[.-]\\d+)*[a-zA-Z]?\\s*(?:[.:：—–-](?!\\d)|$|\\s(?!\\s*\\p{Ll}))`, 'u');

/** A caption of a figure, a table or another numbered exhibit. */
export const CAPTION = labelled(`${OTHER_WORDS}|${TABLE_WORDS}`);

/** A caption that names a table. */
export const TABLE_CAPTION = labelled(TABLE_WORDS);

/** A caption that names a figure, a chart, a diagram: anything but a table. */
export const FIGURE_CAPTION = labelled(OTHER_WORDS);
