// Pages extracted per project and UTC day: counted when a job completes (one
// write), read by GET /v1/usage (the dashboard's usage section), which adds up
// the month's days.

import type { Principal } from './auth.ts';
import type { Clock, Usage } from './ports.ts';

export interface UsageView {
  day: string;
  month: string;
  pages_today: number;
  pages_this_month: number;
}

/** The UTC day (YYYY-MM-DD) and month (YYYY-MM) a moment falls in. */
export function usagePeriods(now: number): { day: string; month: string } {
  const day = new Date(now).toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

export async function usage(deps: { usage: Usage; clock: Clock }, principal: Principal): Promise<UsageView> {
  const { day, month } = usagePeriods(deps.clock.now());
  const days = await deps.usage.getDailyUsage(principal.project_id, month);
  return { day, month, pages_today: days[day] ?? 0, pages_this_month: Object.values(days).reduce((a, b) => a + b, 0) };
}
