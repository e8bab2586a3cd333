import { App } from 'aws-cdk-lib';
import { DocexStack } from '../lib/docex-stack.ts';

const app = new App();
// Without credentials both are unset and the stack stays environment-agnostic, so synth works offline.
new DocexStack(app, 'Docex', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
