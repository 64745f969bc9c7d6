/**
 * How a `vendesk` command is declared. Each area adds its commands in its own file under
 * src/cli/commands/ and one line in src/cli/commands/index.ts.
 */
import type { App } from '../main/app';
import { parseNairaText, type Kobo } from '../shared/money';

export const EXIT = { ok: 0, failed: 1, usage: 2, invalidRows: 3 } as const;

export interface OptionSpec {
  /** `--name`; values are strings, flags are booleans. */
  name: string;
  kind: 'string' | 'boolean';
  description: string;
  multiple?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | boolean | string[] | undefined>;
}

export interface CliContext {
  args: ParsedArgs;
  json: boolean;
  /** The app, connected as the global options say; created on first use. */
  app(): Promise<App>;
  /** Progress and notes for humans; goes to stderr so stdout stays one JSON document. */
  progress(message: string): void;
  /** Resolves when the user presses Ctrl-C (for long-running commands). */
  interrupted: Promise<void>;
  stdout: (text: string) => void;
}

export interface CliResult {
  exitCode?: number;
  /** What `--json` prints (exactly one document). */
  json: unknown;
  /** What a person reads. */
  text: string;
}

export interface CliCommand {
  /** Words that select the command: ['balance'], ['export', 'logs']. */
  path: string[];
  summary: string;
  usage: string;
  options: OptionSpec[];
  /** Commands such as `sandbox` that must not open the app themselves. */
  run(ctx: CliContext): Promise<CliResult>;
}

export class UsageError extends Error {}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new UsageError(`--${name} needs a value`);
  return v;
}

export function requireOption(args: ParsedArgs, name: string): string {
  const v = stringOption(args, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

/** A count or a duration: digits, with an optional decimal point (no exponents, signs or hex). */
export function numberOption(args: ParsedArgs, name: string): number | undefined {
  const v = stringOption(args, name);
  if (v === undefined) return undefined;
  if (!/^\d+(?:\.\d+)?$/.test(v.trim())) throw new UsageError(`--${name} must be a number written in digits, like 50; got "${v}"`);
  return Number(v);
}

/** An amount of Naira (`5000`, `5,000.50`, `₦5,000`), read by the shared parser; kobo. */
export function nairaOption(args: ParsedArgs, name: string): Kobo | undefined {
  const v = stringOption(args, name);
  if (v === undefined) return undefined;
  const r = parseNairaText(v);
  if (!r.ok) throw new UsageError(`--${name} "${v}" is not an amount vendesk reads. ${r.reason}`);
  return r.kobo;
}

/** The positional argument at `index`; `message` says what is missing when it is absent or empty. */
export function requirePositional(args: ParsedArgs, index: number, message: string): string {
  const v = args.positionals[index];
  if (!v) throw new UsageError(message);
  return v;
}

export function dateOption(args: ParsedArgs, name: string): string | undefined {
  const v = stringOption(args, name);
  if (v === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) {
    throw new UsageError(`--${name} must be a date written YYYY-MM-DD, got "${v}"`);
  }
  return v;
}

/** `--from` and `--to` (both optional), refused with `afterMessage` when the range ends before it starts. */
export function dateRangeOptions(
  args: ParsedArgs,
  afterMessage: string | ((from: string, to: string) => string) = '--from is after --to',
): { from: string | undefined; to: string | undefined } {
  const from = dateOption(args, 'from');
  const to = dateOption(args, 'to');
  if (from && to && from > to) throw new UsageError(typeof afterMessage === 'string' ? afterMessage : afterMessage(from, to));
  return { from, to };
}
