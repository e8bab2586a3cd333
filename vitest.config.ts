import { defineConfig } from 'vitest/config';

// One runner, six tiers. `npm test` runs the four that need only Node;
// `npm run test:aws` runs the adapter suite against AWS_ENDPOINT_URL, and
// `npm run test:deploy` the stack deployed into moto (test/deploy/).
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // npm run coverage: the unit tier's coverage of the code with no AWS in it. The thresholds sit just below what it
    // measured when they were set, so coverage may rise freely but a change that drops it fails until they are lowered on purpose.
    coverage: {
      provider: 'v8',
      include: ['lambdas/core/**/*.ts', 'lambdas/extract/**/*.ts'],
      reporter: ['text-summary', 'text', 'json-summary'],
      reportsDirectory: 'coverage',
      // Measured 82.0 / 71.6 / 82.4 / 85.6 % (statements, branches, functions, lines) when set.
      thresholds: { statements: 81.5, branches: 71, functions: 82, lines: 85 },
    },
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // e2e files each start a server; run them one at a time on a 2-core machine.
          fileParallelism: false,
          // A browser round trip on a loaded 2-core machine can take seconds; expect.poll's 1 s default would flake.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
      {
        test: {
          name: 'deploy',
          include: ['test/deploy/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 900_000,
        },
      },
      {
        test: {
          name: 'aws',
          include: ['test/integration/**/*.test.ts'],
          env: { DOCEX_ADAPTER_TARGET: 'aws' },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
