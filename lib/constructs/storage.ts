import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, EventType, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { bucketExpiry, tableSchema, type BucketNotificationSpec, type FunctionName } from '../wiring.ts';

/**
 * The job table, the bucket for documents and results, and the key for
 * webhook secrets. All three outlive the stack: they hold users' data, and
 * without the key the stored secrets cannot be read.
 */
export class Storage extends Construct {
  readonly table: Table;
  readonly bucket: Bucket;
  readonly webhookKey: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const key = (name: string) => ({ name, type: AttributeType.STRING });

    this.table = new Table(this, 'Table', {
      partitionKey: key(tableSchema.partitionKey),
      sortKey: key(tableSchema.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableSchema.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableSchema.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: ProjectionType.ALL,
      });
    }

    // Documents are needed only until extracted and results only for their 12 h
    // cache life; expiry here is the backstop that keeps the bucket from growing.
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        ...bucketExpiry.map(({ id, prefix, days }) => ({ id, prefix, expiration: Duration.days(days) })),
        { id: 'abort-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Browsers PUT large documents straight to a presigned URL. The signature,
      // not the origin, is what authorises the upload, so any origin may send it.
      cors: [{ allowedMethods: [HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['*'], exposedHeaders: ['ETag'], maxAge: 3000 }],
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Objects live a day or two and are only ever read and written by the stack\'s own functions, which log each job; enable CloudTrail S3 data events if an audit trail per object is needed.',
    });

    this.webhookKey = new Key(this, 'WebhookKey', {
      description: 'docex: encrypts webhook signing secrets at rest',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Object-created events under each prefix invoke its function (the upload flow's arrivals). */
  notify(notifications: BucketNotificationSpec[], functions: Record<FunctionName, IFunction>): void {
    for (const { prefix, fn } of notifications) {
      this.bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(functions[fn]), { prefix });
    }
    // CDK writes the notification configuration with a singleton function of its own, created above.
    const handler = Stack.of(this).node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
    const role = handler?.node.tryFindChild('Role');
    if (role) {
      Validations.of(role).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's own handler that writes the bucket notification configuration during deployments; it uses the basic execution policy CDK gives it and serves no requests.",
      });
    }
  }
}
