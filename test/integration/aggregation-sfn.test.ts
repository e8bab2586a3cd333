import { CreateStateMachineCommand, DeleteStateMachineCommand, DescribeExecutionCommand, ListExecutionsCommand } from '@aws-sdk/client-sfn';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sfnClient } from '../../lambdas/adapters/aws-clients.ts';
import { executionArn, SfnAggregationStarter } from '../../lambdas/adapters/sfn-aggregation.ts';
import { aggregationDefinition } from '../../lambdas/core/aggregation-definition.ts';
import { skipWithoutEndpoint, targetsAws } from '../support/aws-backend.ts';

// The aggregation state machine on an AWS-compatible endpoint (`npm run test:aws`):
// created from the same definition function as the stack, started and stopped
// through the Step Functions adapter. Locally (`npm test`) the state machine
// runs in lib/local/state-machine.ts and is tested there; this needs an endpoint.
const skip = !targetsAws() || skipWithoutEndpoint();
if (!targetsAws()) console.info('aggregation-sfn: Step Functions tests run under `npm run test:aws` only (they need an AWS-compatible endpoint).');

describe.skipIf(skip)('the aggregation state machine on the endpoint', () => {
  const sfn = sfnClient({ region: process.env.AWS_REGION ?? 'us-east-1' });
  let arn: string;
  let starter: SfnAggregationStarter;
  const account = '123456789012';
  const fn = (name: string) => `arn:aws:lambda:us-east-1:${account}:function:${name}`;

  beforeAll(async () => {
    const created = await sfn.send(
      new CreateStateMachineCommand({
        name: `docex-aggregation-${randomUUID().slice(0, 8)}`,
        definition: JSON.stringify(aggregationDefinition({ part: fn('docex-aggregate-part'), finish: fn('docex-aggregate-finish'), fail: fn('docex-aggregate-fail') })),
        roleArn: `arn:aws:iam::${account}:role/docex-aggregation`,
        type: 'STANDARD',
      }),
    );
    arn = created.stateMachineArn!;
    starter = new SfnAggregationStarter(sfn, arn);
  });
  afterAll(async () => {
    if (arn) await sfn.send(new DeleteStateMachineCommand({ stateMachineArn: arn }));
  });

  const input = (jobId: string) => ({ job_id: jobId, project_id: 'p', manifest: `parts/p/${jobId}/manifest.json`, batches: [[0, 0]] as Array<[number, number]> });

  it('accepts the definition, and starts one execution per job however often it is started', async () => {
    const jobId = randomUUID();
    await starter.start(input(jobId));
    await starter.start(input(jobId));
    const listed = await sfn.send(new ListExecutionsCommand({ stateMachineArn: arn }));
    expect(listed.executions?.filter((e) => e.name === jobId)).toHaveLength(1);
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: executionArn(arn, jobId) }));
    expect(JSON.parse(described.input!)).toEqual(input(jobId));
    // The endpoint may run the tasks (AWS, LocalStack with Lambda) or not (moto): report what it did.
    console.info(`aggregation-sfn: execution status on ${process.env.AWS_ENDPOINT_URL}: ${described.status}`);
    expect(['RUNNING', 'SUCCEEDED', 'FAILED']).toContain(described.status);
  });

  it("stops a job's execution, and stopping one that does not exist is not an error", async () => {
    const jobId = randomUUID();
    await starter.start(input(jobId));
    await starter.stop(jobId);
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: executionArn(arn, jobId) }));
    // An execution that already ended (an endpoint that fails the fake Lambda tasks at once) cannot be aborted.
    expect(['ABORTED', 'FAILED', 'SUCCEEDED']).toContain(described.status);
    await expect(starter.stop(randomUUID())).resolves.toBeUndefined();
  });
});
