// npm run admin -- <command>: operator tasks against the running local server's data.
//
//   create-project --name NAME [--pages N]
//     Prints {"project_id":"<uuid>","api_key":"kz_..."} on one line. The key is shown only here.
//     Run it with the same PORT and DOCEX_DATA_DIR as `npm start`.
//     With --aws (stack Docex) or --stack NAME it works on a deployed stack instead: the
//     table comes from the stack's outputs, read with your AWS credentials (as for `cdk deploy`).
//
//   webhooks redrive
//     Sends the webhook events that exhausted their attempts (the webhooks DLQ) back to the webhooks queue,
//     with fresh attempts. Prints {"moved":N}. The running server owns its queue files, so this asks it over
//     its loopback admin listener; in AWS, start a DLQ redrive of the stack's webhooks DLQ instead.

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { dynamoClient } from '../lambdas/adapters/aws-clients.ts';
import { DynamoStore } from '../lambdas/adapters/dynamo-store.ts';
import { ApiError } from '../lambdas/core/errors.ts';
import { systemClock } from '../lambdas/core/ports.ts';
import { createProject } from '../lambdas/core/projects.ts';
import { LOCAL_REGION, localCredentials } from '../lib/local/embedded-aws.ts';
import { endpointsFile, type LocalEndpoints } from '../lib/local/server.ts';

// The pinned SDK supports Node 20; its notice about future releases is noise on every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `usage: npm run --silent admin -- create-project --name NAME [--pages N] [--aws | --stack NAME]
       npm run --silent admin -- webhooks redrive

Talks to the local server started by \`npm start\` with the same PORT and DOCEX_DATA_DIR.
create-project --aws or --stack NAME talks to the stack deployed by \`npx cdk deploy\` (default
name Docex) instead, with your AWS credentials and region (AWS_PROFILE, AWS_REGION).`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function localEndpoints(): LocalEndpoints {
  const dataDir = process.env.DOCEX_DATA_DIR ?? './.docex';
  const file = endpointsFile(dataDir);
  if (!fs.existsSync(file)) fail(`No local server is running on ${dataDir} (no ${file}). Start it with \`npm start\` first, with the same DOCEX_DATA_DIR.`);
  const endpoints = JSON.parse(fs.readFileSync(file, 'utf8')) as LocalEndpoints;
  const port = Number(process.env.PORT ?? 3000);
  if (endpoints.port !== port) fail(`The local server on ${dataDir} listens on port ${endpoints.port}, not ${port}; run with PORT=${endpoints.port}.`);
  return endpoints;
}

function localStore(): DynamoStore {
  const endpoints = localEndpoints();
  const credentials = localCredentials(process.env.DOCEX_DATA_DIR ?? './.docex');
  return new DynamoStore(dynamoClient({ dynamodbEndpoint: endpoints.dynamodb, region: LOCAL_REGION, credentials }), endpoints.table);
}

/** The outputs of a deployed docex stack (`ApiUrl`, `TableName`, `BucketName`, queue URLs). */
async function stackOutputs(stackName: string): Promise<Record<string, string>> {
  const cloudformation = new CloudFormationClient({});
  try {
    const { Stacks = [] } = await cloudformation.send(new DescribeStacksCommand({ StackName: stackName }));
    return Object.fromEntries((Stacks[0]?.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
  } catch (error) {
    const { name, message } = error as Error;
    const region = await cloudformation.config.region().catch(() => undefined);
    if (/does not exist/.test(message)) {
      fail(`No stack named ${stackName} in ${region ?? 'the configured region'}: deploy it with \`npx cdk deploy\`, or pass --stack NAME and set AWS_REGION to where it lives.`);
    }
    if (name === 'CredentialsProviderError') fail('No AWS credentials found: configure them as for `cdk deploy` (AWS_PROFILE, `aws configure` or `aws sso login`).');
    if (!region) fail('No AWS region configured: set AWS_REGION to the region the stack was deployed to.');
    throw error;
  } finally {
    cloudformation.destroy();
  }
}

async function deployedStore(stackName: string): Promise<DynamoStore> {
  const { TableName } = await stackOutputs(stackName);
  if (!TableName) fail(`Stack ${stackName} has no TableName output; is it a docex stack? Redeploy it with \`npx cdk deploy\`.`);
  return new DynamoStore(dynamoClient(), TableName);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'webhooks' && rest[0] === 'redrive') {
  const endpoints = localEndpoints();
  const answer = await fetch(`${endpoints.admin.url}/webhooks/redrive`, { method: 'POST', headers: { authorization: `Bearer ${endpoints.admin.token}` } }).catch(
    () => fail('The local server is not answering; is `npm start` still running?'),
  );
  const body = (await answer.json()) as { moved?: number; message?: string };
  if (!answer.ok) fail(`The redrive failed: ${body.message ?? answer.status}`);
  console.log(JSON.stringify(body));
  process.exit(0);
}
if (command !== 'create-project') fail(USAGE);
const { values } = parseArgs({
  args: rest,
  options: { name: { type: 'string' }, pages: { type: 'string' }, aws: { type: 'boolean' }, stack: { type: 'string' } },
});
if (!values.name) fail(USAGE);
const pages = values.pages === undefined ? undefined : Number(values.pages);
try {
  const store = values.aws || values.stack !== undefined ? await deployedStore(values.stack ?? 'Docex') : localStore();
  const created = await createProject({ projects: store, clock: systemClock }, { name: values.name, pages });
  console.log(JSON.stringify(created));
} catch (error) {
  if (error instanceof ApiError) fail(error.message);
  if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') fail('The local server is not answering; is `npm start` still running?');
  throw error;
}
