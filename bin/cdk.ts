import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DocexStack } from '../lib/docex-stack.ts';

const app = new App();
// Without credentials both are unset and the stack stays environment-agnostic, so synth works offline.
new DocexStack(app, 'Docex', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
// cdk-nag's AWS Solutions rules run on every synth and deploy; an unacknowledged
// finding fails it. Each acknowledgment sits beside its resource, with its reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
