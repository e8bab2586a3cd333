import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocexStack } from '../../lib/docex-stack.ts';
import { env, functions, type FunctionName } from '../../lib/wiring.ts';

// stack.test.ts checks the key grants of the functions wiring declares today.
// This file declares a webhook key use on each kind of function itself, so the
// mapping from `uses.webhookKey` to grants and environment is tested before
// (and whether or not) a wiring entry uses it. Vitest gives each test file its
// own module instances, so the change never leaks into other files.
const uses = { 'sandbox-key': 'encrypt', 'get-job': 'decrypt', submit: 'encrypt-decrypt' } as const;
const saved = Object.fromEntries(Object.keys(uses).map((n) => [n, functions[n as FunctionName].uses.webhookKey]));

type Json = Record<string, any>;
let stack: DocexStack;
let resources: Record<string, { Type: string; Properties: Json }>;

beforeAll(() => {
  for (const [name, use] of Object.entries(uses)) functions[name as FunctionName].uses.webhookKey = use;
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
  // Grants and environment are in the template; the bundles are not needed.
  stack = new DocexStack(new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } }), 'Test');
  resources = Template.fromStack(stack).toJSON().Resources;
});
afterAll(() => {
  for (const [name, use] of Object.entries(saved)) functions[name as FunctionName].uses.webhookKey = use as never;
});

const idOf = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as never);
const keyArn = () => ({ 'Fn::GetAtt': [idOf(stack.storage.webhookKey), 'Arn'] });

function keyActions(name: FunctionName): string[] {
  const roleId = resources[idOf(stack.functions.byName[name])]!.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: Json) => x.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Json[])
    .filter((s) => JSON.stringify(s.Resource) === JSON.stringify(keyArn()))
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]))
    .sort();
}

describe('a function that declares uses.webhookKey', () => {
  it.each([
    ['sandbox-key', 'encrypt', ['kms:Encrypt']],
    ['get-job', 'decrypt', ['kms:Decrypt']],
    ['submit', 'encrypt-decrypt', ['kms:Decrypt', 'kms:Encrypt']],
  ] as const)('%s (%s) may call exactly %j on the one key, and is told its ARN', (name, _use, actions) => {
    expect(keyActions(name)).toEqual(actions);
    expect(resources[idOf(stack.functions.byName[name])]!.Properties.Environment.Variables[env.webhookKeyId]).toEqual(keyArn());
  });

  it('one that does not gets neither', () => {
    expect(keyActions('extract-worker')).toEqual([]);
    expect(resources[idOf(stack.functions.byName['extract-worker'])]!.Properties.Environment.Variables[env.webhookKeyId]).toBeUndefined();
  });

  it('all share one key', () => {
    expect(Object.values(resources).filter((r) => r.Type === 'AWS::KMS::Key')).toHaveLength(1);
  });
});
