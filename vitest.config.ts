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
    // Vitest's default is one worker fewer than the cores: ONE on a 2-core machine, so the files ran
    // one after another (729 s). The integration files mostly wait (on sandboxes, child processes,
    // PostgreSQL and LibreOffice), not compute, so more workers than cores pay: see docs/testing.md
    // for the runs that chose this number.
    maxWorkers: 4,
  },
});
