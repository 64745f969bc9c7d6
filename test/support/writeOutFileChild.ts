/**
 * Writes one file with `writeOutFile` in a process of its own, so a test can change the folder
 * while the write is under way (test/unit/exports/writeOutFile.test.ts: the source is a named pipe
 * the write waits on). Prints one JSON line: the path written, or the refusal.
 *
 *   node --import tsx test/support/writeOutFileChild.ts SOURCE TARGET [--force]
 */
import { writeOutFile } from '../../src/main/exports/writeOutFile';
import { AppError } from '../../src/shared/appError';

const [source, target, force] = process.argv.slice(2);
try {
  const written = writeOutFile(source, target, { replace: force === '--force' });
  process.stdout.write(`${JSON.stringify({ ok: true, path: written })}\n`);
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  process.stdout.write(`${JSON.stringify({ ok: false, code: error.code, message: error.message })}\n`);
}
