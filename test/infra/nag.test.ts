import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, expect, it } from 'vitest';
import { DocexStack } from '../../lib/docex-stack.ts';

const root = mkdtempSync(join(tmpdir(), 'docex-nag-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Violation {
  ruleName: string;
  severity: string;
  violatingConstructs: { constructPath: string }[];
}

// Env-agnostic (the tests' usual synth) and with a region and account, as `cdk synth`
// and `cdk deploy` see it: ARNs in findings differ between the two, and so must the acknowledgements.
it.each([
  ['without an env', undefined],
  ['in a known region', { region: 'us-east-1' }],
  ['in a known account and region', { account: '123456789012', region: 'eu-west-1' }],
])('passes the cdk-nag AWS Solutions checks %s, every finding fixed or acknowledged with a reason', (_, env) => {
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
  const outdir = mkdtempSync(join(root, 'out-'));
  // The rules read the template, not the code: skipping esbuild keeps this test fast.
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] }, outdir });
  new DocexStack(app, 'Docex', { env });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

  let failure: unknown;
  try {
    app.synth();
  } catch (error) {
    failure = error;
  }
  // CDK writes the report on failure; list the findings so the test output says what to fix.
  const report = (() => {
    try {
      return JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { violations: Violation[] }[] };
    } catch {
      return { pluginReports: [] };
    }
  })();
  const findings = report.pluginReports.flatMap((p) =>
    p.violations.map((v) => `${v.severity} ${v.ruleName} at ${v.violatingConstructs.map((c) => c.constructPath).join(', ')}`),
  );
  expect(findings).toEqual([]);
  expect(failure).toBeUndefined();
});

