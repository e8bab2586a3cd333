// Every record port over the one table, as one object: for the local server,
// the admin command and the adapter tests, which use them all. A Lambda
// handler takes the port adapters its function calls instead
// (lambdas/adapters/aws-dynamodb.ts), so its bundle carries only those.

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Records } from './compose.ts';
import { DynamoJobQueries } from './dynamo-job-queries.ts';
import { DynamoJobs } from './dynamo-jobs.ts';
import { DynamoApiKeys, DynamoProjects, DynamoSandboxIssues } from './dynamo-keys.ts';
import { DynamoQuotas, DynamoUsage } from './dynamo-quotas.ts';
import { DynamoTable } from './dynamo-table.ts';
import { DynamoDeliveryLog, DynamoWebhookEventClaims, DynamoWebhookRegistrations } from './dynamo-webhooks.ts';

export class DynamoStore implements Records {
  readonly apiKeys: DynamoApiKeys;
  readonly projects: DynamoProjects;
  readonly sandboxIssues: DynamoSandboxIssues;
  readonly quotas: DynamoQuotas;
  readonly usage: DynamoUsage;
  readonly jobs: DynamoJobs;
  readonly jobQueries: DynamoJobQueries;
  readonly webhooks: DynamoWebhookRegistrations;
  readonly eventClaims: DynamoWebhookEventClaims;
  readonly deliveries: DynamoDeliveryLog;

  constructor(client: DynamoDBClient, table: string) {
    const t = new DynamoTable(client, table);
    this.apiKeys = new DynamoApiKeys(t);
    this.projects = new DynamoProjects(t);
    this.sandboxIssues = new DynamoSandboxIssues(t);
    this.quotas = new DynamoQuotas(t);
    this.usage = new DynamoUsage(t);
    this.jobs = new DynamoJobs(t);
    this.jobQueries = new DynamoJobQueries(t);
    this.webhooks = new DynamoWebhookRegistrations(t);
    this.eventClaims = new DynamoWebhookEventClaims(t);
    this.deliveries = new DynamoDeliveryLog(t);
  }

  /** Whether finishJob ran as one transaction (null until it first ran). */
  get transactional(): boolean | null {
    return this.jobs.transactional;
  }

  createProject: Records['createProject'] = (...a) => this.projects.createProject(...a);
  putApiKey: Records['putApiKey'] = (...a) => this.apiKeys.putApiKey(...a);
  getApiKey: Records['getApiKey'] = (...a) => this.apiKeys.getApiKey(...a);
  listApiKeys: Records['listApiKeys'] = (...a) => this.apiKeys.listApiKeys(...a);
  revokeApiKey: Records['revokeApiKey'] = (...a) => this.apiKeys.revokeApiKey(...a);
  touchApiKey: Records['touchApiKey'] = (...a) => this.apiKeys.touchApiKey(...a);
  claimSandboxIssue: Records['claimSandboxIssue'] = (...a) => this.sandboxIssues.claimSandboxIssue(...a);
  reservePages: Records['reservePages'] = (...a) => this.quotas.reservePages(...a);
  refundPages: Records['refundPages'] = (...a) => this.quotas.refundPages(...a);
  addUsage: DynamoUsage['addUsage'] = (...a) => this.usage.addUsage(...a);
  getDailyUsage: Records['getDailyUsage'] = (...a) => this.usage.getDailyUsage(...a);
  putJobs: Records['putJobs'] = (...a) => this.jobs.putJobs(...a);
  getJob: Records['getJob'] = (...a) => this.jobs.getJob(...a);
  transitionJob: Records['transitionJob'] = (...a) => this.jobs.transitionJob(...a);
  claimJob: Records['claimJob'] = (...a) => this.jobs.claimJob(...a);
  recordChunk: Records['recordChunk'] = (...a) => this.jobs.recordChunk(...a);
  finishJob: Records['finishJob'] = (...a) => this.jobs.finishJob(...a);
  claimPoll: Records['claimPoll'] = (...a) => this.jobQueries.claimPoll(...a);
  listJobs: Records['listJobs'] = (...a) => this.jobQueries.listJobs(...a);
  putWebhook: Records['putWebhook'] = (...a) => this.webhooks.putWebhook(...a);
  listWebhooks: Records['listWebhooks'] = (...a) => this.webhooks.listWebhooks(...a);
  getWebhook: Records['getWebhook'] = (...a) => this.webhooks.getWebhook(...a);
  deleteWebhook: Records['deleteWebhook'] = (...a) => this.webhooks.deleteWebhook(...a);
  claimWebhookEvent: Records['claimWebhookEvent'] = (...a) => this.eventClaims.claimWebhookEvent(...a);
  releaseWebhookEvent: Records['releaseWebhookEvent'] = (...a) => this.eventClaims.releaseWebhookEvent(...a);
  getWebhookEvent: Records['getWebhookEvent'] = (...a) => this.deliveries.getWebhookEvent(...a);
  setWebhookEventState: Records['setWebhookEventState'] = (...a) => this.deliveries.setWebhookEventState(...a);
  recordDeliveryAttempt: Records['recordDeliveryAttempt'] = (...a) => this.deliveries.recordDeliveryAttempt(...a);
  listDeliveryAttempts: Records['listDeliveryAttempts'] = (...a) => this.deliveries.listDeliveryAttempts(...a);
}
