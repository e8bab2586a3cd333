import type { QuotaRef } from '../core/job.ts';
import type { Quotas, Reservation, Usage } from '../core/ports.ts';
import { apiKeyKey, conditional, type DynamoTable, projectKey, usageKey } from './dynamo-table.ts';

/** Where a quota's pages_remaining is kept: on the sandbox key, or on the project. */
export const quotaKey = (ref: QuotaRef) => (ref.kind === 'sandbox_key' ? apiKeyKey(ref.key_hash) : projectKey(ref.project_id));

export class DynamoQuotas implements Quotas {
  constructor(private readonly t: DynamoTable) {}

  async reservePages(ref: QuotaRef, pages: number): Promise<Reservation> {
    const Key = quotaKey(ref);
    const taken = await conditional(() =>
      this.t.db.update({
        TableName: this.t.name,
        Key,
        UpdateExpression: 'SET pages_remaining = pages_remaining - :n',
        ConditionExpression: 'attribute_exists(pages_remaining) AND pages_remaining >= :n',
        ExpressionAttributeValues: { ':n': pages },
      }),
    );
    if (taken) return 'reserved';
    if (ref.kind === 'sandbox_key') return 'insufficient';
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key, ConsistentRead: true });
    if (!Item) throw new Error(`project ${ref.project_id} has a key but no project record`);
    return Item.pages_remaining === undefined ? 'unlimited' : 'insufficient';
  }

  async refundPages(ref: QuotaRef, pages: number): Promise<void> {
    if (pages <= 0) return;
    await conditional(() =>
      this.t.db.update({
        TableName: this.t.name,
        Key: quotaKey(ref),
        UpdateExpression: 'ADD pages_remaining :n',
        ConditionExpression: 'attribute_exists(pages_remaining)',
        ExpressionAttributeValues: { ':n': pages },
      }),
    );
  }

  /** Whether the quota counts pages at all (a project without pages_remaining has no limit; a sandbox key always has one). */
  async limited(ref: QuotaRef): Promise<boolean> {
    if (ref.kind === 'sandbox_key') return true;
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key: projectKey(ref.project_id), ConsistentRead: true });
    return Item?.pages_remaining !== undefined;
  }
}

/** Pages per project and UTC day, one counter item each (USAGE#2026-11-21). */
export class DynamoUsage implements Usage {
  constructor(private readonly t: DynamoTable) {}

  /** No port's: the domain adds usage only with the job that earned it (Jobs.finishJob); the adapter suite checks it alone. */
  async addUsage(projectId: string, day: string, pages: number): Promise<void> {
    await this.t.db.update({
      TableName: this.t.name,
      Key: usageKey(projectId, day),
      UpdateExpression: 'ADD pages :n',
      ExpressionAttributeValues: { ':n': pages },
    });
  }

  async getDailyUsage(projectId: string, month: string): Promise<Record<string, number>> {
    // The trailing dash keeps the query to day items (USAGE#2026-11-21), not a month item USAGE#2026-11.
    const items = await this.t.queryAll(`PROJECT#${projectId}`, `USAGE#${month}-`);
    return Object.fromEntries(items.map((item) => [String(item.sk).slice('USAGE#'.length), Number(item.pages ?? 0)]));
  }
}
