import type { Context } from 'aws-lambda';
import { beginInvocation } from './observability.ts';

/**
 * Builds a handler on its first invocation and keeps it for the life of the
 * container, so clients are created once, and importing a handler module
 * (tests, the local server) needs no environment. Each invocation first gives
 * the logger its context (lambdas/adapters/observability.ts).
 */
export function onColdStart<E, R>(build: () => (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  let built: ((event: E) => Promise<R>) | undefined;
  return (event, context) => {
    beginInvocation(event, context);
    return (built ??= build())(event);
  };
}
