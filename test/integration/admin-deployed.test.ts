import { CloudFormationClient, CreateStackCommand, DeleteStackCommand, DescribeStacksCommand, waitUntilStackCreateComplete } from '@aws-sdk/client-cloudformation';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoClient } from '../../lambdas/adapters/aws-clients.ts';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { hashKey } from '../../lambdas/core/api-key.ts';
import { createTableInput } from '../../lib/local/embedded-aws.ts';
import { skipWithoutEndpoint, targetsAws } from '../support/aws-backend.ts';
import { ROOT } from '../support/local-server.ts';

const admin = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { cwd: ROOT, env: process.env });

// `npm run admin -- create-project --stack NAME` against a deployed stack: it
// finds the table through the stack's outputs. Here the "deployed stack" is a
// CloudFormation stack holding just the table and its TableName output,
// which is all the command reads, created on the endpoint and removed after.
describe.skipIf(!targetsAws() || skipWithoutEndpoint())('admin create-project against a deployed stack', () => {
  const cloudformation = new CloudFormationClient({});
  const stackName = `docex-test-${randomUUID().slice(0, 8)}`;
  let table: string;

  beforeAll(async () => {
    const { TableName: _physicalName, ...properties } = createTableInput('unused');
    const template = {
      Resources: { Table: { Type: 'AWS::DynamoDB::Table', Properties: properties } },
      Outputs: { TableName: { Value: { Ref: 'Table' } } },
    };
    await cloudformation.send(new CreateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify(template) }));
    await waitUntilStackCreateComplete({ client: cloudformation, maxWaitTime: 120, minDelay: 1 }, { StackName: stackName });
    const { Stacks } = await cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
    table = Stacks![0]!.Outputs!.find((o) => o.OutputKey === 'TableName')!.OutputValue!;
  });
  afterAll(async () => {
    await cloudformation.send(new DeleteStackCommand({ StackName: stackName }));
    cloudformation.destroy();
  });

  it("creates the project and its key in the stack's table", async () => {
    const { stdout } = await admin('create-project', '--name', 'deployed', '--pages', '100', '--stack', stackName);
    const created = JSON.parse(stdout.trim().split('\n').at(-1)!) as { project_id: string; api_key: string };
    expect(created.api_key).toMatch(/^kz_[0-9A-Za-z]{29}$/);
    const key = await new DynamoStore(dynamoClient(), table).getApiKey(hashKey(created.api_key));
    expect(key).toMatchObject({ project_id: created.project_id, tier: 'live' });
  });

  it('names the missing stack and how to deploy it', async () => {
    const failed = await admin('create-project', '--name', 'x', '--stack', `${stackName}-absent`).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain(`No stack named ${stackName}-absent`);
    expect(failed?.stderr).toContain('npx cdk deploy');
  });
});
