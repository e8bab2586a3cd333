import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../wiring.ts';

/** The runtime every function runs on; esbuild's target below follows it. */
export const lambdaRuntime = Runtime.NODEJS_22_X;

/**
 * What the bundles leave to the Lambda runtime: the SDK's service clients.
 * The Node.js 18+ runtimes are documented to carry "the AWS SDK for
 * JavaScript v3" without a list of packages; the service clients are that
 * SDK. Everything else is bundled at our version: the SDK's add-on libraries
 * (@aws-sdk/util-dynamodb, @aws-sdk/s3-request-presigner), which nothing
 * documents in the runtime, and @smithy/*, some of which the runtime lacks
 * (aws/aws-cdk#33099). So bundled code meets a client of another SDK release,
 * and none of it may hook into a client's middleware the way
 * @aws-sdk/lib-dynamodb does (lambdas/adapters/dynamo-documents.ts).
 */
export const runtimeProvidedModules = ['@aws-sdk/client-*'];

/** The files pdfium.ts and ocr.ts look for beside the bundle. */
export const OCR_MODULES = ['tesseract.js', '@tesseract.js-data/eng'];

const extractionEngineFiles: Pick<BundlingOptions, 'nodeModules' | 'commandHooks'> = {
  // Installed into the asset at the versions package-lock.json pins.
  nodeModules: OCR_MODULES,
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => [`cp "${inputDir}/node_modules/@embedpdf/pdfium/dist/pdfium.wasm" "${outputDir}/pdfium.wasm"`],
  },
};

/** `cdk deploy -c bundleAwsSdk=true` puts our own copy of the SDK in every bundle instead. */
export const BUNDLE_AWS_SDK_CONTEXT = 'bundleAwsSdk';

/** True when the app asked for the SDK inside the bundles; `-c` gives the string "true", cdk.json a boolean. */
export const bundlesAwsSdk = (scope: Construct) => [true, 'true'].includes(scope.node.tryGetContext(BUNDLE_AWS_SDK_CONTEXT));

/**
 * How every Lambda is bundled. `lib/constructs/functions.ts` passes this to
 * NodejsFunction, and `npm run bench:bundle` measures the bundles the stack
 * itself synthesizes, so the measured code is the deployed code.
 *
 * By default the service clients come from the runtime: an API function's
 * bundle is then its own code, under the 250 KB goal (with the SDK inside,
 * one DynamoDB client alone is over 320 KB). The price: the clients run at the
 * runtime's SDK version, which AWS updates on its own schedule, not the one
 * the tests ran against; and a cold start loads their files from the
 * runtime's node_modules, slower than one minified bundle (`npm run
 * bench:bundle` measures both). `bundleAwsSdk` buys back both, at 350 to
 * 600 KB per function.
 */
export function lambdaBundling(scope: Construct, spec: Pick<FunctionSpec, 'extracts'> = {}): BundlingOptions {
  const bundleAwsSdk = bundlesAwsSdk(scope);
  return {
    ...(spec.extracts ? extractionEngineFiles : {}),
    minify: true,
    sourceMap: true,
    // Maps give stack traces file:line; embedding the sources would only bloat the zip.
    sourcesContent: false,
    format: OutputFormat.ESM,
    target: 'node22',
    // Kept as literals: esbuild otherwise rewrites `\p{...}` expressions as `new RegExp(...)`, built at each call.
    esbuildArgs: { '--supported:regexp-unicode-property-escapes': 'true' },
    mainFields: ['module', 'main'],
    bundleAwsSDK: bundleAwsSdk,
    // Named rather than CDK's default of all @aws-sdk/*, which would leave out the add-on libraries too.
    externalModules: bundleAwsSdk ? [] : runtimeProvidedModules,
    // CommonJS dependencies inside an ESM bundle still call require().
    banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  };
}
