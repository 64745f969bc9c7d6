/**
 * `--out FILE` of every command that writes one (`grep -rn "'out'" src/cli`): checked before the
 * command's work and written through `writeOutFile` (src/main/exports/writeOutFile.ts), which
 * never follows a link and replaces an existing file only with `--force`. A folder or an existing
 * file is a usage mistake (exit 2, like a purchase without --yes); a link is refused (exit 1).
 */
import path from 'node:path';
import { AppError } from '../shared/appError';
import { outFileRefusal, writeOutFile } from '../main/exports/writeOutFile';
import { UsageError, type OptionSpec, type ParsedArgs } from './cliCommand';

export const FORCE_OPTION: OptionSpec = { name: 'force', kind: 'boolean', description: 'Replace the --out file if it already exists (a link or a folder is refused even so)' };

const USAGE_REFUSALS = new Set(['out_is_folder', 'out_exists']);

function options(args: ParsedArgs, example: string) {
  return { replace: args.options.force === true, example };
}

function asCliError(refusal: AppError): Error {
  return USAGE_REFUSALS.has(refusal.code) ? new UsageError(`${refusal.message}\n${refusal.hint ?? ''}`) : refusal;
}

/**
 * The absolute path `--out` names, once it may be written: refused (before anything is made)
 * when it is a folder, a link, or an existing file without `--force`. `example` is a file name
 * for the folder sentence (`logs.xlsx`).
 */
export function outTarget(args: ParsedArgs, out: string, example: string): string {
  const target = path.resolve(out);
  const refusal = outFileRefusal(target, options(args, example));
  if (refusal) throw asCliError(refusal);
  return target;
}

/** Writes the file the app made (`written`, in its exports folder) to `--out`; answers its path. */
export function writeExportTo(written: string, out: string, args: ParsedArgs, example = path.basename(written)): string {
  try {
    return writeOutFile(written, out, options(args, example));
  } catch (error) {
    throw error instanceof AppError ? asCliError(error) : error;
  }
}
