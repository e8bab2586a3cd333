import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { BUNDLE_AWS_SDK_CONTEXT, lambdaBundling, runtimeProvidedModules } from '../../lib/constructs/bundling.ts';

const bundlingIn = (context: Record<string, unknown>) => lambdaBundling(new Stack(new App({ context }), 'Test'));

describe('the AWS SDK in the bundles', () => {
  it('leaves the service clients to the runtime by default', () => {
    expect(bundlingIn({})).toMatchObject({ bundleAwsSDK: false, externalModules: runtimeProvidedModules });
    expect(runtimeProvidedModules).toEqual(['@aws-sdk/client-*']);
  });

  it.each([true, 'true'])(`bundles the whole SDK when ${BUNDLE_AWS_SDK_CONTEXT} is %s`, (value) => {
    expect(bundlingIn({ [BUNDLE_AWS_SDK_CONTEXT]: value })).toMatchObject({ bundleAwsSDK: true, externalModules: [] });
  });

  it('takes any other value as the default', () => {
    expect(bundlingIn({ [BUNDLE_AWS_SDK_CONTEXT]: 'false' })).toMatchObject({ bundleAwsSDK: false, externalModules: runtimeProvidedModules });
  });
});
