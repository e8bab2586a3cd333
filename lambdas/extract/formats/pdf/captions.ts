// "Figure 3.", "Table 2:" in the languages docex reads most: English, German, French, Spanish, Italian,
// Portuguese, Dutch, Russian, Hebrew, Arabic, Chinese and Japanese.

const TABLE_WORDS = 'table|tab|tabelle|tableau|tabla|cuadro|tabella|tabela|tabel|таблица|טבלה|جدول|الجدول|表';
const OTHER_WORDS = 'fig(?:ure)?|chart|exhibit|plate|listing|example|algorithm|scheme|graph|diagram|abbildung|abb|figura|gráfico|quadro|figuur|рис(?:унок)?|איור|תרשים|شكل|الشكل|图|圖|図';

/** A label, its number, and a stop, a colon, a dash or the end of the line. */
const labelled = (words: string) => new RegExp(`^(?:${words})\\.?\\s*[\\dIVX]+(?:[.-]\\d+)*[a-z]?\\s*(?:[.:：—–-]|$|\\s)`, 'iu');

/** A caption of a figure, a table or another numbered exhibit. */
export const CAPTION = labelled(`${OTHER_WORDS}|${TABLE_WORDS}`);

/** A caption that names a table. */
export const TABLE_CAPTION = labelled(TABLE_WORDS);

/** A caption that names a figure, a chart, a diagram: anything but a table. */
export const FIGURE_CAPTION = labelled(OTHER_WORDS);
