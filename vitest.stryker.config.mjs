// The Vitest configuration of the mutation run (`npm run test:mutation`, stryker.config.mjs):
// only the tests that exercise the mutated modules — their unit tests and the few fast
// integration tests that drive them through the app — so a run fits two shared cores.
// `npm test` never reads this file (vitest.config.ts is the suite's).
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// Not mergeConfig: it would add these files to the suite's list instead of replacing it.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      // src/shared: the unit tests beside each module, and the ones elsewhere that read them.
      'src/shared/**/*.test.ts',
      'test/unit/foundation/contract.test.ts',
      'test/unit/foundation/events.test.ts',
      'test/unit/foundation/teamAddress.test.ts',
      'test/unit/api/parseLogEntry.test.ts',
      // Redaction of the token.
      'test/unit/foundation/redact*.test.ts',
      // The requery rule (2 min 1 s, then backoff) and the countdown built on it.
      'test/unit/pending/**/*.test.ts',
      'test/unit/api/serviceAnswers.test.ts',
      'test/unit/api/serviceErrors.test.ts',
      'test/integration/pending/requeryRule.test.ts',
      // Reconcile's categories and wallet roll-forward.
      'test/unit/reconcile/**/*.test.ts',
      'test/integration/reconcile/reconcile.test.ts',
    ],
  },
});
