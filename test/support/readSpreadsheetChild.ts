/**
 * Reads one file with the real importer in a process of its own (run with a small heap by
 * test/integration/foundation/hostileFiles.test.ts), and prints one JSON line: the rows read or
 * the refusal, and the process's peak memory. Exit 0 read, 3 refused; anything else is a crash.
 *
 *   node --max-old-space-size=256 --import tsx test/support/readSpreadsheetChild.ts import|vendor FILE [SHEET]
 */
import { isImportError, readSpreadsheet } from '../../src/main/imports';
import { readVendorExport } from '../../src/main/reconcile/vendorExportRows';
import { AppError } from '../../src/shared/appError';

async function main(): Promise<number> {
  const [mode, file, sheet] = process.argv.slice(2);
  const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
  try {
    if (mode === 'vendor') {
      const read = await readVendorExport(file, { sheet, skipHash: true });
      process.stdout.write(`${JSON.stringify({ ok: true, rows: read.columns.length, unreadable: read.unreadableCount, peakRssMb: peakRssMb() })}\n`);
    } else {
      const table = await readSpreadsheet(file, { sheet });
      process.stdout.write(
        `${JSON.stringify({ ok: true, rows: table.rows.length, headers: table.headers, rowNumbers: table.rows.slice(0, 5).map((r) => r.row), peakRssMb: peakRssMb() })}\n`,
      );
    }
    return 0;
  } catch (error) {
    if (isImportError(error) || error instanceof AppError) {
      process.stdout.write(`${JSON.stringify({ ok: false, code: error.code, message: error.message, peakRssMb: peakRssMb() })}\n`);
      return 3;
    }
    throw error;
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
