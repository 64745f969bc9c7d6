// Mutation testing (`npm run test:mutation`, docs/testing.md "Mutation testing"): Stryker plants
// small bugs in src/shared and in the money, requery, reconcile and redaction logic of src/main,
// one at a time, and runs the tests that cover each; a mutant no test notices is a gap.
// Not part of `npm test`: it is CPU heavy (concurrency 2 on a 2-core box).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.mjs', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/shared/**/*.ts',
    '!src/shared/**/*.test.ts',
    // Redaction of the token in logs, errors and files.
    'src/main/redact.ts',
    // The requery rule: first check 2 min 1 s after the purchase, then 1, 2, 4… minutes.
    'src/main/api/requeryBackoff.ts',
    // Reconcile: the categories of each entry and the wallet roll-forward.
    'src/main/reconcile/categorizeEntries.ts',
    'src/main/reconcile/reconcileItemDrafts.ts',
    'src/main/reconcile/walletRollForward.ts',
  ],
  concurrency: 2,
  timeoutMS: 20_000,
  // A mutant in a module-level constant (a zod schema of the contract, a table) runs before any
  // test, so it would need every test for each mutant: counted as ignored, not run.
  ignoreStatic: true,
  // The sandbox copy needs the sources and tests, not builds, data or the end-to-end suite.
  ignorePatterns: ['out', 'dist', 'build', '.tmp', 'bench/data', 'test-results', 'playwright-report', 'reports', 'test/e2e', 'docs', 'resources'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 75, break: null },
};
