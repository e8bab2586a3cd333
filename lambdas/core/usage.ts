// Pages extracted per project and UTC day and month: counted when a job
// completes, read by GET /v1/usage (the dashboard's usage section).

import type { Principal } from './auth.ts';
import type { Clock, Store } from './ports.ts';

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

export async function usage(deps: { store: Store; clock: Clock }, principal: Principal): Promise<UsageView> {
  const { day, month } = usagePeriods(deps.clock.now());
  const counts = await deps.store.getUsage(principal.project_id, [day, month]);
  return { day, month, pages_today: counts[day] ?? 0, pages_this_month: counts[month] ?? 0 };
}
