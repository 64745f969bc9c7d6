/**
 * How a `vendesk` command is declared. Each area adds its commands in its own file under
 * src/cli/commands/ and one line in src/cli/commands/index.ts.
 */
import type { z } from 'zod';
import type { App } from '../main/app';
import type { OperationInput, OperationName, OperationOutput } from '../shared/contract';
import { parseNairaText, type Kobo } from '../shared/money';
import type { TerminalText } from './terminal';

export const EXIT = { ok: 0, failed: 1, usage: 2, invalidRows: 3, awaitingApproval: 4 } as const;

/** What each exit code means, for docs/cli.md's table (written from here by `npm run docs:cli`). */
export const EXIT_MEANINGS: Readonly<Record<(typeof EXIT)[keyof typeof EXIT], string>> = {
  [EXIT.ok]: 'Done',
  [EXIT.failed]:
    'Failed (the message says why and what to do, on stderr — with `--json` too, where stdout holds `{"error": {"code", "message", "hint"}}`), or — for `bulk submit`, `bulk resume` and `bulk status` — the job waits for someone: it is paused, interrupted or needs attention; `audit verify` and `team doctor`: a problem was found (each is listed). Exit codes 2, 3 and 4 also say why on stderr',
  [EXIT.usage]: 'Usage error (unknown command or option, missing value, an amount or date that cannot be read, From after To), or a purchase without `--yes` (nothing is bought)',
  [EXIT.invalidRows]: 'The input had invalid rows (`bulk validate`, `bulk submit`, `contacts import`)',
  [EXIT.awaitingApproval]:
    'Waiting for approval (team workspace, LIVE): a bulk job or a single purchase was sent for approval by another team member, or still waits (`bulk submit`, `bulk resume`, `bulk adopt`, `buy …`, `purchases resume`); nothing was bought',
};

export interface OptionSpec {
  /** `--name`; values are strings, flags are booleans. */
  name: string;
  kind: 'string' | 'boolean';
  description: string;
  multiple?: boolean;
}

/** Options every command takes, before or after the command's words (as git and kubectl do). */
export const GLOBAL_OPTIONS: OptionSpec[] = [
  { name: 'data-dir', kind: 'string', description: 'App data folder (default ~/.config/vendesk; env VENDESK_DATA_DIR)' },
  { name: 'profile', kind: 'string', description: 'Use this saved connection profile (name or id) for this command' },
  { name: 'base-url', kind: 'string', description: 'Use this service instead of the saved profile (env VENDESK_BASE_URL)' },
  { name: 'token', kind: 'string', description: 'API token for --base-url; prefer env VENDESK_TOKEN (a token on the command line is seen by others and kept in logs)' },
  { name: 'json', kind: 'boolean', description: 'Print exactly one JSON document on stdout' },
  { name: 'help', kind: 'boolean', description: 'Show help' },
  { name: 'version', kind: 'boolean', description: "Print vendesk's version" },
];

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | boolean | string[] | undefined>;
}

export interface CliContext {
  args: ParsedArgs;
  json: boolean;
  /** The app data folder the global options name (`--data-dir`, VENDESK_DATA_DIR, else the default). */
  dataDir: string;
  /** The app, connected as the global options say; created on first use. */
  app(): Promise<App>;
  /** The environment the command runs in (secrets such as VENDESK_TEAM_PASSWORD are read from it). */
  env: NodeJS.ProcessEnv;
  /**
   * Progress and notes for humans; goes to stderr so stdout stays one JSON document. A string is
   * one value, escaped whole (src/cli/terminal.ts); a text of several lines is a TerminalText.
   */
  progress(message: TerminalText | string): void;
  /** Resolves when the user presses Ctrl-C (for long-running commands). */
  interrupted: Promise<void>;
  /** Aborted when the user presses Ctrl-C: the signal of every call the command makes. */
  signal: AbortSignal;
  /**
   * Calls one operation of the contract with the app and the command's signal (Ctrl-C cancels
   * it: the call then fails with the code `cancelled`).
   */
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /** Text for stdout while the command runs (the web shell's address); escaped as every text is. */
  stdout: (text: TerminalText) => void;
}

/**
 * A command that did not do what was asked: its exit code and what stderr says — with and without
 * `--json`, so a script that keeps only stderr (a crontab's `2>>`) knows why.
 */
export interface CliFailure {
  exitCode: 1 | 2 | 3 | 4;
  message: string;
  hint?: string;
}

export interface CliResult<Json = unknown> {
  /** What `--json` prints (exactly one document). */
  json: Json;
  /** What a person reads: laid out by src/cli/terminal.ts, every value in it escaped. */
  text: TerminalText;
  /** Set when the command failed (exit code 1 or more); absent: exit 0. */
  failure?: CliFailure;
}

export interface CliCommand<Json = unknown> {
  /** Words that select the command: ['balance'], ['export', 'logs']. */
  path: string[];
  summary: string;
  usage: string;
  options: OptionSpec[];
  /**
   * What `--json` prints when the command runs (src/cli/jsonShape.ts): amounts in Naira. The tests
   * parse real outputs with it, and docs/cli.md is generated from it.
   */
  output: z.ZodType<Json>;
  /** What the exit codes mean for this command, where more than "0 done, 1 failed, 2 usage error". */
  exitCodes?: Partial<Record<0 | 1 | 2 | 3 | 4, string>>;
  /** Commands such as `sandbox` that must not open the app themselves. */
  run(ctx: CliContext): Promise<CliResult<Json>>;
}

/** A command whose JSON is checked against its declared shape by the compiler too. */
export function command<Json>(c: CliCommand<Json>): CliCommand {
  return c as CliCommand;
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
