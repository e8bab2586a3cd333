import { describe, expect, it } from 'vitest';
import { onColdStart } from '../../lambdas/adapters/cold-start.ts';
import { recordJobFinished, recordWebhookAttempt } from '../../lambdas/core/metrics.ts';

/** What the handler writes to stdout while it runs, as Lambda would ship it to CloudWatch Logs. */
async function stdoutOf(run: () => Promise<unknown>): Promise<string[]> {
  const written: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stdout.write;
  try {
    await run().catch(() => undefined);
  } finally {
    process.stdout.write = write;
  }
  return written.join('').split('\n').filter((line) => line.startsWith('{'));
}

const emfLines = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, any>).filter((o) => o._aws?.CloudWatchMetrics);

// The first invocation routes the core's metrics to Powertools for the life of the module, as in a Lambda container.
describe('the Lambda adapter writes the metrics as embedded metric format', () => {
  it('publishes what an invocation recorded when it ends, one line per dimension set, in namespace Docex', async () => {
    const handler = onColdStart(() => async () => {
      recordJobFinished('completed', 'pdf', { pages: 7, extractionMs: 1234 });
      return 'ok';
    });
    const lines = emfLines(await stdoutOf(() => handler({ job_id: 'j1', project_id: 'p1' })));
    expect(lines).toHaveLength(2);
    const [finished, extracted] = lines;
    expect(finished!._aws.CloudWatchMetrics).toEqual([
      { Namespace: 'Docex', Dimensions: [['service', 'status', 'format']], Metrics: [{ Name: 'JobsFinished', Unit: 'Count' }] },
    ]);
    expect(finished).toMatchObject({ service: 'docex', status: 'completed', format: 'pdf', JobsFinished: 1 });
    expect(typeof finished!._aws.Timestamp).toBe('number');
    expect(extracted!._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'Docex',
        Dimensions: [['service', 'format']],
        Metrics: [
          { Name: 'PagesExtracted', Unit: 'Count' },
          { Name: 'ExtractionTime', Unit: 'Milliseconds' },
        ],
      },
    ]);
    expect(extracted).toMatchObject({ service: 'docex', format: 'pdf', PagesExtracted: 7, ExtractionTime: 1234 });
  });

  it('publishes them from an invocation that throws, and writes nothing for one that recorded nothing', async () => {
    const failing = onColdStart(() => async () => {
      recordWebhookAttempt('retrying');
      throw new Error('the receiver timed out');
    });
    const lines = emfLines(await stdoutOf(() => failing({})));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ service: 'docex', outcome: 'retrying', WebhookAttempts: 1 });

    const quiet = onColdStart(() => async () => 'nothing to count');
    expect(await stdoutOf(() => quiet({}))).toEqual([]);
  });
});
