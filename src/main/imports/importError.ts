/**
 * The one error type the importer throws for a file it cannot read. `code` lets the UI and the
 * CLI react (e.g. offer "choose another sheet"), `message` tells the user what happened and
 * what to do about it.
 */
import type { ImportErrorCode } from '../../shared/errorCodes';

export type { ImportErrorCode };

export class ImportError extends Error {
  readonly code: ImportErrorCode;

  constructor(code: ImportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportError';
    this.code = code;
  }
}

export function isImportError(error: unknown): error is ImportError {
  return error instanceof ImportError;
}

export const DEFAULT_MAX_ROWS = 200_000;
export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
/** 200,000 rows of 30 columns: what bounds one import's memory, whatever the sheet claims. */
export const DEFAULT_MAX_CELLS = 6_000_000;

export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 10 ? `${Math.round(mb)} MB` : `${mb.toFixed(1)} MB`;
}
