import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { tableSchema } from '../wiring.ts';

/** The job table and the bucket for documents and results. Both outlive the stack: they hold users' data. */
export class Storage extends Construct {
  readonly table: Table;
  readonly bucket: Bucket;

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
        { id: 'documents', prefix: 'documents/', expiration: Duration.days(1) },
        { id: 'results', prefix: 'results/', expiration: Duration.days(2) },
        { id: 'abort-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
  }
}
