// A chart as readers of several formats find it (an OOXML chart part, an
// ODS chart object) and as every one of them writes it out.

import type { Blocks } from './blocks.ts';

export interface ChartText {
  title: string;
  axisTitles: string[];
  /** A header row (an empty corner, then the series names) and one row per category with the series' values. */
  rows: string[][];
}

/**
 * The title as a caption, the axis titles, and the series by category as a table: what the chart shows, in every
 * format. A spreadsheet's chart too, though its figures stand in cells of some sheet: the chart arranges them by
 * series as drawn (a chart sheet has no cells of its own), and its table is named by its caption.
 */
export function writeChart(out: Blocks, chart: ChartText): void {
  out.caption(chart.title);
  if (chart.axisTitles.length > 0) out.paragraph(chart.axisTitles.join(', '));
  // A chart whose part keeps no values (its cache left out) has series names and nothing under them.
  if (chart.rows.length > 1) out.table(chart.rows);
}
