type Sink = (message: string, fields: Record<string, unknown>) => void;

let sink: Sink = (message, fields) => console.log(JSON.stringify({ message, ...fields }));

/** One JSON object per line: what CloudWatch Logs Insights (and a local reader) can query by field. */
export const logJson = (message: string, fields: Record<string, unknown> = {}) => sink(message, fields);

/** In Lambda the lines go through Powertools' logger instead (lambdas/adapters/observability.ts), which adds the invocation's keys. */
export const setLogSink = (next: Sink): void => {
  sink = next;
};
