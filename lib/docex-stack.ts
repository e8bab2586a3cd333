import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Aggregation } from './constructs/aggregation.ts';
import { Alarms } from './constructs/alarms.ts';
import { Api } from './constructs/api.ts';
import { OperationsDashboard } from './constructs/dashboard.ts';
import { ExtractionPipeline } from './constructs/extraction-pipeline.ts';
import { Functions } from './constructs/functions.ts';
import { pascal } from './constructs/naming.ts';
import { Storage } from './constructs/storage.ts';
import { bucketNotifications, type QueueName } from './wiring.ts';

/** docex in one stack: API Gateway -> handlers -> table, bucket and queues -> workers. */
export class DocexStack extends Stack {
  readonly storage: Storage;
  readonly pipeline: ExtractionPipeline;
  readonly functions: Functions;
  readonly api: Api;
  readonly alarms: Alarms;
  readonly aggregation: Aggregation;
  readonly dashboard: OperationsDashboard;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.storage = new Storage(this, 'Storage');
    this.pipeline = new ExtractionPipeline(this, 'Pipeline');
    this.functions = new Functions(this, 'Functions', {
      table: this.storage.table,
      bucket: this.storage.bucket,
      queues: this.pipeline.queues,
      webhookKey: this.storage.webhookKey,
    });
    this.pipeline.connectConsumers(this.functions.byName);
    this.storage.notify(bucketNotifications, this.functions.byName);
    this.aggregation = new Aggregation(this, 'Aggregation', { functions: this.functions.byName });
    this.api = new Api(this, 'Api', { functions: this.functions.byName });
    this.alarms = new Alarms(this, 'Alarms', {
      functions: this.functions.byName,
      deadLetterQueues: this.pipeline.deadLetterQueues,
      stateMachines: { Aggregation: this.aggregation.stateMachine },
      email: this.node.tryGetContext('alarmEmail'),
    });
    this.dashboard = new OperationsDashboard(this, 'Dashboard', {
      restApi: this.api.restApi,
      functions: this.functions.byName,
      queues: this.pipeline.queues,
      deadLetterQueues: this.pipeline.deadLetterQueues,
      stateMachine: this.aggregation.stateMachine,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL; routes are under /v1' });
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.storage.bucket.bucketName });
    for (const name of Object.keys(this.pipeline.queues) as QueueName[]) {
      new CfnOutput(this, `${pascal(name)}QueueUrl`, { value: this.pipeline.queues[name].queueUrl });
      new CfnOutput(this, `${pascal(name)}DlqUrl`, { value: this.pipeline.deadLetterQueues[name].queueUrl });
    }
    new CfnOutput(this, 'StateMachineArn', {
      value: this.aggregation.stateMachine.stateMachineArn,
      description: 'The aggregation state machine of large documents; executions are named after job ids',
    });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboard.dashboardName, description: 'The CloudWatch dashboard beside the alarms' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn, description: 'Subscribe to hear about dead letters, errors and throttles' });
  }
}
