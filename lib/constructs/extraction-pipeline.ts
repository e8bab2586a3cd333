import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { functions, queues as wiredQueues, type FunctionName, type QueueName, type QueueSpec } from '../wiring.ts';
import { pascal } from './naming.ts';

const entries = Object.entries(wiredQueues) as [QueueName, QueueSpec][];

/**
 * The queues between stages, each with its own DLQ. Built in two steps because
 * producers need the queues before the functions exist, and consumers are
 * functions: create, then `connectConsumers` once the functions are there.
 */
export class ExtractionPipeline extends Construct {
  readonly queues = {} as Record<QueueName, Queue>;
  readonly deadLetterQueues = {} as Record<QueueName, Queue>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    for (const [name, spec] of entries) {
      const consumerTimeout = functions[spec.consumer].timeoutSeconds;
      if (spec.visibilityTimeoutSeconds < 6 * consumerTimeout) {
        throw new Error(`queue ${name}: visibility ${spec.visibilityTimeoutSeconds}s is under 6x ${spec.consumer}'s ${consumerTimeout}s timeout`);
      }
      const dlq = new Queue(this, `${pascal(name)}Dlq`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // Longest SQS allows, and longer than the source retention, since a
        // dead-lettered message keeps its original enqueue time.
        retentionPeriod: Duration.days(14),
      });
      this.deadLetterQueues[name] = dlq;
      this.queues[name] = new Queue(this, `${pascal(name)}Queue`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
        retentionPeriod: Duration.days(spec.retentionDays),
        deadLetterQueue: { queue: dlq, maxReceiveCount: spec.maxReceiveCount },
      });
    }
  }

  connectConsumers(fns: Record<FunctionName, IFunction>): void {
    for (const [name, spec] of entries) {
      fns[spec.consumer].addEventSource(
        new SqsEventSource(this.queues[name], {
          batchSize: spec.batchSize,
          maxConcurrency: spec.maxConcurrency,
          // A failed record is retried alone, not with the rest of its batch.
          reportBatchItemFailures: true,
        }),
      );
    }
  }
}
