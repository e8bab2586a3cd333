import { invalidRequest } from '../core/errors.ts';
import type { Job, JobStatus } from '../core/job.ts';
import type { JobQueries, PollClaim } from '../core/ports.ts';
import { conditional, type DynamoTable, jobKey, stripJob } from './dynamo-table.ts';

export class DynamoJobQueries implements JobQueries {
  constructor(private readonly t: DynamoTable) {}

  async claimPoll(jobId: string, projectId: string, now: number, minIntervalMs: number): Promise<PollClaim> {
    // project_id in the condition: a job that is missing or another project's fails it untouched.
    const claimed = await conditional(() =>
      this.t.db.update({
        TableName: this.t.name,
        Key: jobKey(jobId),
        UpdateExpression: 'SET last_polled_at = :now',
        ConditionExpression: 'project_id = :project AND (attribute_not_exists(last_polled_at) OR last_polled_at <= :cutoff)',
        ExpressionAttributeValues: { ':now': now, ':cutoff': now - minIntervalMs, ':project': projectId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (claimed?.Attributes) return { ok: true, job: stripJob(claimed.Attributes) };
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key: jobKey(jobId), ConsistentRead: true });
    const last = (Item?.last_polled_at as number | undefined) ?? now;
    return { ok: false, job: Item ? stripJob(Item) : null, retryAfterMs: Math.max(1, last + minIntervalMs - now) };
  }

  async listJobs(
    projectId: string,
    query: { status?: JobStatus; limit: number; cursor?: string },
  ): Promise<{ jobs: Job[]; cursor: string | null }> {
    // A status filter applies after DynamoDB's Limit, so keep reading until
    // the page is full; the cursor then points just after the last job returned.
    const found: Record<string, unknown>[] = [];
    let start = query.cursor ? readCursor(query.cursor, `PROJECT#${projectId}#JOBS`) : undefined;
    let more = true;
    while (found.length < query.limit && more) {
      const page = await this.t.db.query({
        TableName: this.t.name,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: query.status ? '#status = :status' : undefined,
        ExpressionAttributeNames: query.status ? { '#status': 'status' } : undefined,
        ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}#JOBS`, ...(query.status ? { ':status': query.status } : {}) },
        ScanIndexForward: false,
        Limit: query.limit,
        ExclusiveStartKey: start,
      });
      found.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
      more = start !== undefined;
    }
    const jobs = found.slice(0, query.limit);
    const last = jobs.at(-1);
    const hasMore = found.length > query.limit || more;
    const cursor =
      hasMore && last
        ? Buffer.from(JSON.stringify({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk })).toString('base64url')
        : null;
    return { jobs: jobs.map((item) => stripJob(item)), cursor };
  }
}

/** A cursor this store gave out for this project's list; anything else is the client's mistake (a 400), never a 500. */
function readCursor(cursor: string, partition: string): Record<string, unknown> {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  const fields = key && typeof key === 'object' && !Array.isArray(key) ? Object.entries(key) : [];
  const valid =
    fields.length > 0 &&
    fields.length <= 4 &&
    fields.every(([name, value]) => ['pk', 'sk', 'gsi1pk', 'gsi1sk'].includes(name) && typeof value === 'string') &&
    (key as Record<string, unknown>).gsi1pk === partition;
  if (!valid) throw invalidRequest('cursor is not one this API gave out; pass next_cursor from the previous page unchanged.');
  return key as Record<string, unknown>;
}
