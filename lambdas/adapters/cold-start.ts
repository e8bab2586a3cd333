import type { Context } from 'aws-lambda';
import { beginInvocation, publishMetrics } from './observability.ts';

/**
 * Builds a handler on its first invocation and keeps it for the life of the
 * container, so clients are created once, and importing a handler module
 * (tests, the local server) needs no environment. Each invocation first gives
 * the logger its context and last publishes the metrics it recorded
 * (lambdas/adapters/observability.ts), a failed one too: the jobs it failed
 * before throwing were counted.
 */
export function onColdStart<E, R>(build: () => (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  let built: ((event: E) => Promise<R>) | undefined;
  return async (event, context) => {
    beginInvocation(event, context);
    try {
      return await (built ??= build())(event);
    } finally {
      publishMetrics();
    }
  };
}
