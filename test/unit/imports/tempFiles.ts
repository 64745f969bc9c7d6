/** Temporary files for importer tests, removed after the run. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempDir(): { path: (name: string) => string; write: (name: string, content: string | Buffer) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'vendesk-imports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    path: (name) => join(dir, name),
    write: (name, content) => {
      const file = join(dir, name);
      writeFileSync(file, content);
      return file;
    },
  };
}

export const FIXTURES = join(__dirname, '../../fixtures/imports');
