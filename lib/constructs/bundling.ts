import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/** The runtime every function runs on; esbuild's target below follows it. */
export const lambdaRuntime = Runtime.NODEJS_22_X;

/**
 * How every Lambda is bundled. `lib/constructs/functions.ts` passes this to
 * NodejsFunction, and `npm run bench:bundle` measures the bundles the stack
 * itself synthesizes, so the measured code is the deployed code.
 */
export const lambdaBundling: BundlingOptions = {
  minify: true,
  sourceMap: true,
  // Maps give stack traces file:line; embedding the sources would only bloat the zip.
  sourcesContent: false,
  format: OutputFormat.ESM,
  target: 'node22',
  mainFields: ['module', 'main'],
  // Ship the SDK version the tests ran against, not whatever the runtime carries.
  bundleAwsSDK: true,
  // CommonJS dependencies inside an ESM bundle still call require().
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
};
