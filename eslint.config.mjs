import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './eslint-rules/layers.mjs';
import pinnedConnection from './eslint-rules/pinnedConnection.mjs';

/** vendesk's own rules (eslint-rules/): the layers, and what costs money takes its connection. */
const vendesk = { rules: { ...layers.rules, ...pinnedConnection.rules } };

/**
 * The code that buys, settles or requeries (docs/architecture.md, *What costs money takes its
 * connection*): the purchase engine, the vending detail, the requery loop, the team's runs of
 * purchases. Exported for its test (test/unit/foundation/pinnedConnection.test.ts).
 */
export const PINNED_CONNECTION_FILES = [
  'src/main/buying/**/*.ts',
  'src/main/purchases/**/*.ts',
  'src/main/pending/**/*.ts',
  'src/main/team/{purchaseApproval,approvedPurchases,bulkApproval,teamJobRun,teamRunSpec,sentElsewhere}.ts',
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'build/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'bench/data/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The layers of docs/architecture.md: shared → services → handlers → shells; the sandbox on its own.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { vendesk },
    rules: { 'vendesk/layers': 'error' },
  },
  {
    // What buys, settles or requeries is given its session; it never reads the connection in use.
    files: PINNED_CONNECTION_FILES,
    ignores: ['src/**/*.test.ts'],
    plugins: { vendesk },
    rules: { 'vendesk/pinned-connection': 'error' },
  },
  {
    // Everything the command line prints goes through its one output layer (src/cli/terminal.ts),
    // which escapes what a file, the service or the team database holds (docs/security.md).
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/terminal.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stdout', message: 'Print through src/cli/terminal.ts (ctx.stdout, ctx.progress, a command’s text).' },
        { object: 'process', property: 'stderr', message: 'Print through src/cli/terminal.ts (ctx.progress, a command’s failure).' },
        { object: 'io', property: 'stdout', message: 'Print through screenOf(io) of src/cli/terminal.ts.' },
        { object: 'io', property: 'stderr', message: 'Print through screenOf(io) of src/cli/terminal.ts.' },
      ],
    },
  },
  {
    // Only the Electron shell may import electron.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/main/index.ts', 'src/main/shell/**', 'src/preload/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only the Electron shell (src/main/index.ts, src/main/shell/) imports electron.' }] }],
    },
  },
  {
    // Unit tests may sit beside their module (src/**/x.test.ts); the app never imports one, so no
    // test (nor vitest) is ever bundled into it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vitest', message: 'vitest belongs in tests (*.test.ts) only.' }],
          patterns: [{ group: ['**/*.test', '**/*.test.ts'], message: 'The app never imports a test file: it would be bundled into the app.' }],
        },
      ],
    },
  },
);
