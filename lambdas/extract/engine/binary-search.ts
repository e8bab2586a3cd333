// Binary search over anything sorted: offsets, pieces, elements, rows.

/**
 * The first index in [0, count) for which `before` is false, or `count`.
 * `before` must hold for a prefix of the indexes only, as it does for "the
 * item sorts before the place sought" over a sorted array.
 */
export function firstNotBefore(count: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
