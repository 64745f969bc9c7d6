import { vi } from 'vitest';

/**
 * `redactSecrets` of a freshly loaded redaction module that knows only `tokens`. Called inside a
 * test (or its beforeEach), so every test builds the token's patterns itself: the mutation run
 * (docs/testing.md, "Mutation testing") runs only the tests that reach a planted bug, and a module
 * whose patterns were built once for the whole file would show it to one test only.
 */
export async function redactionWith(...tokens: string[]): Promise<(text: string) => string> {
  vi.resetModules();
  const redact = await import('../../../src/main/redact');
  for (const token of tokens) redact.registerSecret(token);
  return redact.redactSecrets;
}
