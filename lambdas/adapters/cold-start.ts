/**
 * Builds a handler on its first invocation and keeps it for the life of the
 * container, so clients are created once, and importing a handler module
 * (tests, the local server) needs no environment.
 */
export function onColdStart<E, R>(build: () => (event: E) => Promise<R>): (event: E) => Promise<R> {
  let built: ((event: E) => Promise<R>) | undefined;
  return (event) => (built ??= build())(event);
}
