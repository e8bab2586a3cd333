// The stack's one table (DESIGN.md section 5) as the DynamoDB record adapters
// share it: the item keys, the conversions between items and records, and
// the conditional-write and paging helpers. Each port has its own adapter
// module (dynamo-keys.ts, dynamo-jobs.ts, ...), so a Lambda bundles only the
// ports its function calls; dynamo-store.ts puts them all together.

import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { formatPageRanges, parsePageRanges } from '../core/extraction-config.ts';
import type { Job, JobStatus } from '../core/job.ts';
import type { DeliveryAttempt } from '../core/ports.ts';
import { DynamoDocuments, type Item, type QueryInput } from './dynamo-documents.ts';

// Items are addressed by pk alone; sk is a constant type tag so that later item kinds can share a partition.
export const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });
export const apiKeyKey = (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' });
export const projectKey = (id: string) => ({ pk: `PROJECT#${id}`, sk: 'PROJECT' });
export const sandboxSlotKey = (ip: string, slot: number) => ({ pk: `SANDBOXIP#${ip}`, sk: `SLOT#${slot}` });
// Webhook registrations live in their project's partition; events and delivery
// attempts in their job's, so they share the job record's lifetime.
export const webhookKey = (projectId: string, id: string) => ({ pk: `PROJECT#${projectId}`, sk: `WEBHOOK#${id}` });
export const eventKey = (jobId: string, eventId: string) => ({ pk: `JOB#${jobId}`, sk: `EVENT#${eventId}` });
/** Zero-padded start time first, so a query returns attempts in the order they were made. */
export const attemptKey = (a: DeliveryAttempt) => ({ pk: `JOB#${a.job_id}`, sk: `DELIVERY#${String(a.at).padStart(15, '0')}#${a.event_id}#${a.attempt}` });
export const usageKey = (projectId: string, day: string) => ({ pk: `PROJECT#${projectId}`, sk: `USAGE#${day}` });
/** Delivery history is kept as long as a job record (7 days). */
export const DELIVERY_RETENTION_S = 7 * 24 * 3600;

const ITEM_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'last_polled_at']);
export function strip<T>(item: Record<string, unknown>): T {
  // Number sets (a job's recorded chunks) come back as Sets; the domain sees sorted arrays.
  return Object.fromEntries(
    Object.entries(item)
      .filter(([k]) => !ITEM_ATTRIBUTES.has(k))
      .map(([k, v]) => [k, v instanceof Set ? [...(v as Set<number>)].sort((a, b) => a - b) : v]),
  ) as T;
}

/**
 * A job as stored: a page selection as compact ranges ("1-100000", not a
 * list of 100,000 numbers), so a job record stays far below DynamoDB's 400 KB
 * item limit whatever the selection.
 */
export function jobItem(job: Job): Record<string, unknown> {
  const pages = job.config?.pages;
  return pages ? { ...job, config: { ...job.config, pages: formatPageRanges(pages) } } : { ...job };
}

export function stripJob(item: Record<string, unknown>): Job {
  const job = strip<Job>(item);
  const pages = job.config?.pages as unknown;
  if (typeof pages === 'string') job.config = { ...job.config!, pages: parsePageRanges(pages) };
  return job;
}

export const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/** The condition that a job's status (#status) is one of `from`, with its values. */
export function statusIn(from: JobStatus[]): { condition: string; values: Record<string, JobStatus> } {
  return {
    condition: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
    values: Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
  };
}

/** The write's result, or null when its condition failed. */
export async function conditional<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** The table and its documents client, shared by every port adapter of one function. */
export class DynamoTable {
  readonly db: DynamoDocuments;

  constructor(
    client: DynamoDBClient,
    readonly name: string,
  ) {
    this.db = new DynamoDocuments(client);
  }

  /** Every item of a partition whose sort key starts with `skPrefix`. */
  queryAll(pk: string, skPrefix: string): Promise<Item[]> {
    return this.queryPages({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ConsistentRead: true,
    });
  }

  /** Follows LastEvaluatedKey until the query has given every item. */
  async queryPages(query: Omit<QueryInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await this.db.query({ TableName: this.name, ...query, ExclusiveStartKey: start });
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
