/** Temporary files for importer tests, removed after the run; and the ImportError a read ends with. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { ImportError } from '../../../src/main/imports';

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

/** The ImportError the read was refused with; fails the test when it succeeds or fails otherwise. */
export async function importError(promise: Promise<unknown>): Promise<ImportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error('expected an ImportError');
}
