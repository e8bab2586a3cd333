import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Dashboard, GraphWidget, MathExpression, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { FunctionName, QueueName } from '../wiring.ts';

export interface OperationsDashboardProps {
  restApi: RestApi;
  functions: Record<FunctionName, IFunction>;
  queues: Record<QueueName, IQueue>;
  deadLetterQueues: Record<QueueName, IQueue>;
  stateMachine: IStateMachine;
}

/**
 * One CloudWatch dashboard beside the alarms: what to look at when one fires,
 * from the metrics AWS publishes itself (API Gateway, Lambda, SQS, Step
 * Functions; DLQ depth among them), and docex's own in the `Docex` namespace,
 * which the functions write as embedded metric format
 * (lambdas/adapters/observability.ts). The alarms' own states stay
 * in the Alarms console: an alarm status widget names alarms by ARN, which
 * moto's CloudFormation cannot resolve, and `npm run test:deploy` deploys this stack there.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, { restApi, functions, queues, deadLetterQueues, stateMachine }: OperationsDashboardProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const fns = Object.entries(functions) as [FunctionName, IFunction][];
    const each = <T>(record: Record<string, T>, metric: (name: string, value: T) => IMetric) => Object.entries(record).map(([name, value]) => metric(name, value));
    const graph = (title: string, left: IMetric[], width = 12) => new GraphWidget({ title, left, width, height: 6 });

    // A format or status is a dimension value, only known once a job has had it, so each widget searches the
    // dimension set the functions write (Powertools adds `service` to each) and labels a line by its values.
    const docex = (dimensions: string[], metric: string, statistic: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{Docex,${['service', ...dimensions].join(',')}} MetricName="${metric}"', '${statistic}', ${period.toSeconds()})`,
        usingMetrics: {},
        label,
        period,
      });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(
      graph('API: requests, 4xx, 5xx', [
        restApi.metricCount({ period, statistic: 'Sum' }),
        restApi.metricClientError({ period, statistic: 'Sum' }),
        restApi.metricServerError({ period, statistic: 'Sum' }),
      ]),
      graph('API: latency p50 / p99 (ms)', [restApi.metricLatency({ period, statistic: 'p50' }), restApi.metricLatency({ period, statistic: 'p99' })]),
    );
    this.dashboard.addWidgets(
      graph('Lambda invocations', fns.map(([name, fn]) => fn.metricInvocations({ period, statistic: 'Sum', label: name }))),
      graph('Lambda errors and throttles', fns.flatMap(([name, fn]) => [
        fn.metricErrors({ period, statistic: 'Sum', label: `${name} errors` }),
        fn.metricThrottles({ period, statistic: 'Sum', label: `${name} throttles` }),
      ])),
    );
    this.dashboard.addWidgets(
      graph('Lambda duration p95 (ms)', fns.map(([name, fn]) => fn.metricDuration({ period, statistic: 'p95', label: name })), 24),
    );
    this.dashboard.addWidgets(
      graph('Queue depth and DLQ depth', [
        ...each(queues, (name, q) => q.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum', label: `${name} queue` })),
        ...each(deadLetterQueues, (name, q) => q.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum', label: `${name} DLQ` })),
      ]),
      graph('Oldest message age (s)', each(queues, (name, q) => q.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum', label: name }))),
    );
    this.dashboard.addWidgets(
      graph('Jobs finished by status and format', [docex(['status', 'format'], 'JobsFinished', 'Sum', "${PROP('Dim.status')} ${PROP('Dim.format')}")]),
      graph('Pages extracted by format', [docex(['format'], 'PagesExtracted', 'Sum', "${PROP('Dim.format')}")]),
    );
    this.dashboard.addWidgets(
      graph('Extraction time by format, p50 and p99 (ms; whole documents)', [
        docex(['format'], 'ExtractionTime', 'p50', "p50 ${PROP('Dim.format')}"),
        docex(['format'], 'ExtractionTime', 'p99', "p99 ${PROP('Dim.format')}"),
      ]),
      graph('Webhook attempts by outcome', [docex(['outcome'], 'WebhookAttempts', 'Sum', "${PROP('Dim.outcome')}")]),
    );
    this.dashboard.addWidgets(
      graph('Aggregation executions', [
        stateMachine.metricStarted({ period, statistic: 'Sum' }),
        stateMachine.metricSucceeded({ period, statistic: 'Sum' }),
        stateMachine.metricFailed({ period, statistic: 'Sum' }),
        stateMachine.metricAborted({ period, statistic: 'Sum' }),
      ], 24),
    );
  }
}
