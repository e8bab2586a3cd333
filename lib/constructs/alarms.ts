import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { FunctionName, QueueName } from '../wiring.ts';
import { pascal } from './naming.ts';

export interface AlarmsProps {
  functions: Record<FunctionName, IFunction>;
  deadLetterQueues: Record<QueueName, IQueue>;
  /** A failed execution means a merge failed for good (its job was failed, or if even that failed, is still aggregating): each raises an alarm. */
  stateMachines?: Record<string, IStateMachine>;
  /** Subscribed to the alarm topic when given (`cdk deploy -c alarmEmail=you@example.com`). */
  email?: string;
}

/**
 * One alarm per thing that should never happen quietly: a message in any
 * DLQ (a job or a delivery SQS gave up on), a function error (a crash or a
 * timeout, not a document problem: those fail the job, not the function), a
 * throttle. All notify one SNS topic.
 */
export class Alarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { functions, deadLetterQueues, stateMachines = {}, email }: AlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'docex alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'The topic carries only alarm names and states, no user data; encrypting it would need a customer-managed key whose policy admits CloudWatch, for nothing secret.',
    });
    if (email) this.topic.addSubscription(new EmailSubscription(email));

    for (const [name, dlq] of Object.entries(deadLetterQueues) as [QueueName, IQueue][]) {
      this.add(`${pascal(name)}DlqNotEmpty`, `A ${name} message was dead-lettered: read it from the ${name} DLQ and redrive it once the cause is fixed.`,
        dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }));
    }
    for (const [name, fn] of Object.entries(functions) as [FunctionName, IFunction][]) {
      this.add(`${pascal(name)}Errors`, `docex ${name} failed an invocation (crash or timeout): see its log group.`,
        fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }));
      this.add(`${pascal(name)}Throttles`, `docex ${name} was throttled: raise the account's Lambda concurrency or lower the queue's maxConcurrency.`,
        fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }));
    }
    this.addStateMachines(stateMachines);
  }

  private addStateMachines(stateMachines: Record<string, IStateMachine>): void {
    for (const [name, machine] of Object.entries(stateMachines)) {
      this.add(`${name}ExecutionsFailed`, `A docex ${name} execution failed: its FailJob step failed the job (if that step failed too, the job is still aggregating); see the execution history for the caught error and fix the cause.`,
        machine.metricFailed({ period: Duration.minutes(5), statistic: 'Sum' }));
    }
  }

  private add(id: string, description: string, metric: IMetric): void {
    const alarm = new Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No data means no messages and no invocations: nothing is wrong.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }
}
