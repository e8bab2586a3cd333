/** One JSON object per line: what CloudWatch Logs Insights (and a local reader) can query by field. */
export const logJson = (message: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ message, ...fields }));
