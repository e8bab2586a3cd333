import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, expect, it } from 'vitest';
import { DocexStack } from '../../lib/docex-stack.ts';

const outdir = mkdtempSync(join(tmpdir(), 'docex-nag-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

interface Violation {
  ruleName: string;
  severity: string;
  violatingConstructs: { constructPath: string }[];
}

it('passes the cdk-nag AWS Solutions checks, every finding fixed or acknowledged with a reason', () => {
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
  // The rules read the template, not the code: skipping esbuild keeps this test fast.
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] }, outdir });
  new DocexStack(app, 'Docex');
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

