// Every AWS client factory in one import, for code that runs outside Lambda
// (the local server, the admin command, tests). A Lambda handler imports the
// module of each service it uses instead: its bundle keeps every import of a
// client it reaches, since the clients come from the runtime
// (lib/constructs/bundling.ts), and loads each one at init even if nothing calls it.

export { requiredEnv, type ClientOptions } from './aws-config.ts';
export { dynamoClient } from './aws-dynamodb.ts';
export { s3Client } from './aws-s3.ts';
export { sqsClient } from './aws-sqs.ts';
export { sfnClient } from './aws-sfn.ts';
export { kmsClient } from './aws-webhooks.ts';
