import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests of a pure module may sit beside it (src/**/x.test.ts); the bundles never reach them
    // (nothing imports a .test file: eslint holds that), and tsconfig.web/e2e leave them out.
    include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
