import type { ApiKeyRecord, ApiKeys, Gate, Project, Projects, SandboxIssues } from '../core/ports.ts';
import { apiKeyKey, conditional, type DynamoTable, projectKey, sandboxSlotKey, strip } from './dynamo-table.ts';

/** API keys, by the hash of the key (a live key also under its project's gsi1 partition, for the list). */
export class DynamoApiKeys implements ApiKeys {
  constructor(private readonly t: DynamoTable) {}

  async putApiKey(key: ApiKeyRecord): Promise<void> {
    await this.t.db.put({
      TableName: this.t.name,
      Item: { ...apiKeyKey(key.key_hash), gsi1pk: `PROJECT#${key.project_id}#KEYS`, gsi1sk: String(key.created_at), ...key },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async getApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key: apiKeyKey(keyHash), ConsistentRead: true });
    return Item ? strip<ApiKeyRecord>(Item) : null;
  }

  async listApiKeys(projectId: string): Promise<ApiKeyRecord[]> {
    const items = await this.t.queryPages({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}#KEYS` },
    });
    return items.map((item) => strip<ApiKeyRecord>(item));
  }

  async revokeApiKey(keyHash: string, now: number): Promise<void> {
    await this.t.db.update({
      TableName: this.t.name,
      Key: apiKeyKey(keyHash),
      UpdateExpression: 'SET revoked_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now },
    });
  }

  async touchApiKey(keyHash: string, now: number, staleMs: number): Promise<void> {
    await conditional(() =>
      this.t.db.update({
        TableName: this.t.name,
        Key: apiKeyKey(keyHash),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at <= :cutoff)',
        ExpressionAttributeValues: { ':now': now, ':cutoff': now - staleMs },
      }),
    );
  }
}

export class DynamoProjects implements Projects {
  private readonly keys: DynamoApiKeys;

  constructor(private readonly t: DynamoTable) {
    this.keys = new DynamoApiKeys(t);
  }

  async createProject(project: Project, key: ApiKeyRecord): Promise<void> {
    // Project first: a crash in between leaves a project with no key, which is harmless.
    await this.t.db.put({ TableName: this.t.name, Item: { ...projectKey(project.id), ...project }, ConditionExpression: 'attribute_not_exists(pk)' });
    await this.keys.putApiKey(key);
  }
}

export class DynamoSandboxIssues implements SandboxIssues {
  constructor(private readonly t: DynamoTable) {}

  async claimSandboxIssue(ip: string, now: number, windowMs: number, max: number): Promise<Gate> {
    // A sliding window as `max` slots per IP: a slot is free when it was never
    // used or its key was issued more than a window ago. Each slot is taken by
    // one conditional write, so concurrent requests can never share a slot.
    for (let slot = 0; slot < max; slot++) {
      const taken = await conditional(() =>
        this.t.db.put({
          TableName: this.t.name,
          Item: { ...sandboxSlotKey(ip, slot), issued_at: now, expires_at: Math.ceil((now + windowMs) / 1000) },
          ConditionExpression: 'attribute_not_exists(pk) OR issued_at <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': now - windowMs },
        }),
      );
      if (taken !== null) return { ok: true };
    }
    const { Items = [] } = await this.t.db.query({
      TableName: this.t.name,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': sandboxSlotKey(ip, 0).pk },
      ConsistentRead: true,
    });
    const oldest = Math.min(...Items.map((item) => item.issued_at as number));
    return { ok: false, retryAfterMs: Math.max(1, oldest + windowMs - now) };
  }
}
