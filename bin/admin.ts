// npm run admin -- <command>: operator tasks against the running local server's data.
//
//   create-project --name NAME [--pages N]
//     Prints {"project_id":"<uuid>","api_key":"kz_..."} on one line. The key is shown only here.
//     Run it with the same PORT and DOCEX_DATA_DIR as `npm start`.

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { dynamoClient } from '../lambdas/adapters/aws-clients.ts';
import { DynamoStore } from '../lambdas/adapters/dynamo-store.ts';
import { ApiError } from '../lambdas/core/errors.ts';
import { systemClock } from '../lambdas/core/ports.ts';
import { createProject } from '../lambdas/core/projects.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../lib/local/embedded-aws.ts';
import { endpointsFile, type LocalEndpoints } from '../lib/local/server.ts';

// The pinned SDK supports Node 20; its notice about future releases is noise on every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `usage: npm run --silent admin -- create-project --name NAME [--pages N]

Talks to the local server started by \`npm start\` with the same PORT and DOCEX_DATA_DIR.`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function localStore(): DynamoStore {
  const dataDir = process.env.DOCEX_DATA_DIR ?? './.docex';
  const file = endpointsFile(dataDir);
  if (!fs.existsSync(file)) fail(`No local server is running on ${dataDir} (no ${file}). Start it with \`npm start\` first, with the same DOCEX_DATA_DIR.`);
  const endpoints = JSON.parse(fs.readFileSync(file, 'utf8')) as LocalEndpoints;
  const port = Number(process.env.PORT ?? 3000);
  if (endpoints.port !== port) fail(`The local server on ${dataDir} listens on port ${endpoints.port}, not ${port}; run with PORT=${endpoints.port}.`);
  return new DynamoStore(dynamoClient({ dynamodbEndpoint: endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }), endpoints.table);
}

const [command, ...rest] = process.argv.slice(2);
if (command !== 'create-project') fail(USAGE);
const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, pages: { type: 'string' } } });
if (!values.name) fail(USAGE);
const pages = values.pages === undefined ? undefined : Number(values.pages);
try {
  const created = await createProject({ store: localStore(), clock: systemClock }, { name: values.name, pages });
  console.log(JSON.stringify(created));
} catch (error) {
  if (error instanceof ApiError) fail(error.message);
  if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') fail('The local server is not answering; is `npm start` still running?');
  throw error;
}
