import type {
  DeliveryAttempt,
  DeliveryLog,
  WebhookEventClaims,
  WebhookEventRecord,
  WebhookRegistration,
  WebhookRegistrations,
} from '../core/ports.ts';
import { attemptKey, conditional, DELIVERY_RETENTION_S, type DynamoTable, eventKey, isConditionFailure, strip, webhookKey } from './dynamo-table.ts';

export class DynamoWebhookRegistrations implements WebhookRegistrations {
  constructor(private readonly t: DynamoTable) {}

  async putWebhook(registration: WebhookRegistration): Promise<void> {
    await this.t.db.put({
      TableName: this.t.name,
      Item: { ...webhookKey(registration.project_id, registration.id), ...registration },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async listWebhooks(projectId: string): Promise<WebhookRegistration[]> {
    const items = await this.t.queryAll(`PROJECT#${projectId}`, 'WEBHOOK#');
    return items.map((item) => strip<WebhookRegistration>(item));
  }

  async getWebhook(projectId: string, id: string): Promise<WebhookRegistration | null> {
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key: webhookKey(projectId, id), ConsistentRead: true });
    return Item ? strip<WebhookRegistration>(Item) : null;
  }

  async deleteWebhook(projectId: string, id: string): Promise<boolean> {
    const deleted = await conditional(() =>
      this.t.db.delete({ TableName: this.t.name, Key: webhookKey(projectId, id), ConditionExpression: 'attribute_exists(pk)' }),
    );
    return deleted !== null;
  }
}

export class DynamoWebhookEventClaims implements WebhookEventClaims {
  constructor(private readonly t: DynamoTable) {}

  async claimWebhookEvent(record: WebhookEventRecord, staleBefore: number): Promise<boolean> {
    const claimed = await conditional(() =>
      this.t.db.put({
        TableName: this.t.name,
        Item: { ...eventKey(record.job_id, record.event_id), ...record, expires_at: Math.floor(record.queued_at / 1000) + DELIVERY_RETENTION_S },
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :queued AND queued_at < :stale)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':queued': 'queued', ':stale': staleBefore },
      }),
    );
    return claimed !== null;
  }

  async releaseWebhookEvent(jobId: string, eventId: string): Promise<void> {
    await this.t.db.delete({
      TableName: this.t.name,
      Key: eventKey(jobId, eventId),
      ConditionExpression: '#state = :queued',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':queued': 'queued' },
    }).catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
  }
}

export class DynamoDeliveryLog implements DeliveryLog {
  constructor(private readonly t: DynamoTable) {}

  async getWebhookEvent(jobId: string, eventId: string): Promise<WebhookEventRecord | null> {
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key: eventKey(jobId, eventId), ConsistentRead: true });
    return Item ? strip<WebhookEventRecord>(Item) : null;
  }

  async setWebhookEventState(jobId: string, eventId: string, state: WebhookEventRecord['state'], now: number): Promise<void> {
    // Once delivered, always delivered: a late failure of a duplicate copy must not undo it.
    await conditional(() =>
      this.t.db.update({
        TableName: this.t.name,
        Key: eventKey(jobId, eventId),
        UpdateExpression: 'SET #state = :state, updated_at = :now, job_id = :job, event_id = :event, queued_at = if_not_exists(queued_at, :now), expires_at = if_not_exists(expires_at, :exp)',
        ConditionExpression: 'attribute_not_exists(#state) OR #state <> :delivered',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':state': state,
          ':now': now,
          ':job': jobId,
          ':event': eventId,
          ':delivered': 'delivered',
          ':exp': Math.floor(now / 1000) + DELIVERY_RETENTION_S,
        },
      }),
    );
  }

  async recordDeliveryAttempt(attempt: DeliveryAttempt): Promise<void> {
    await this.t.db.put({
      TableName: this.t.name,
      Item: { ...attemptKey(attempt), ...attempt, expires_at: Math.floor(attempt.at / 1000) + DELIVERY_RETENTION_S },
    });
  }

  async listDeliveryAttempts(jobId: string): Promise<DeliveryAttempt[]> {
    const items = await this.t.queryAll(`JOB#${jobId}`, 'DELIVERY#');
    return items.map((item) => strip<DeliveryAttempt & { expires_at?: number }>(item)).map(({ expires_at: _, ...a }) => a);
  }
}
