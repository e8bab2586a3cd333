// A chart as readers of several formats find it (an OOXML chart part, an
// ODS chart object) and as every one of them writes it out.

import type { Blocks } from './blocks.ts';

export interface ChartText {
  title: string;
  axisTitles: string[];
  /** A header row (an empty corner, then the series names) and one row per category with the series' values. */
  rows: string[][];
}

/** `data` false leaves out the series table (a spreadsheet's chart shows cells the sheet's table already has). */
export function writeChart(out: Blocks, chart: ChartText, data = true): void {
  out.caption(chart.title);
  if (chart.axisTitles.length > 0) out.paragraph(chart.axisTitles.join(', '));
  if (data) out.table(chart.rows);
}
