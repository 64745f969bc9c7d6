import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests of a pure module may sit beside it (src/**/x.test.ts); the bundles never reach them
    // (nothing imports a .test file: eslint holds that), and tsconfig.web/e2e leave them out.
    include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    // Hang guards, not speed checks (no test depends on the machine's speed): a test that takes
    // 12 s on a quiet machine takes three times that on a CI box that is busy, and must still pass.
    // A test or hook that needs longer still says so itself ({ timeout: 240_000 }).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: ONE on a 2-core machine, so the 144 files
    // ran one after another (729 s on a quiet machine). The integration files mostly wait (sandboxes,
    // child processes, PostgreSQL, LibreOffice: a whole run is about 250 s of user CPU), so more files
    // than cores run side by side. 4 rather than 3: both were green, and on the same shared, busy
    // machine 4 took 501 s (load 9-17) where 3 took 797 s (load 13-17); a file that must not be
    // hurried by others does not exist here (no test depends on the machine's speed).
    maxWorkers: 4,
  },
});
