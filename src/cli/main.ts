/**
 * `vendesk` — the same services as the app, for scripted and scheduled work.
 * Global options: --data-dir, --base-url, --token (or VENDESK_DATA_DIR, VENDESK_BASE_URL,
 * VENDESK_TOKEN), --json (exactly one JSON document on stdout; amounts in Naira). Exit codes:
 * 0 done, 1 failed (or a bulk job waits for someone), 2 usage error, 3 the input had invalid rows.
 */
import type { App } from '../main/app';
import { defaultDataDir } from '../main/dataDir';
import { teamLink } from '../main/team/teamLink';
import { namedPathsPolicy } from '../main/filePolicy';
import { redactSecrets, registerSecret } from '../main/redact';
import { AppError } from '../shared/appError';
import { APP_VERSION } from '../main/version';
import { EXIT, GLOBAL_OPTIONS, UsageError, type CliCommand, type OptionSpec, type ParsedArgs } from './cliCommand';
import { cliError } from './cliHints';
import { COMMAND_ENTRIES, type CommandEntry } from './commandEntries';
import { screenOf, tt, vendeskLines, type CliIo } from './terminal';

export { GLOBAL_OPTIONS };

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return row[b.length];
}

/** The closest of `choices` to `word`, when it is close enough to be a typo. */
export function didYouMean(word: string, choices: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of choices) {
    const d = distance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : null;
}

/**
 * The words that name the command, wherever the global options stand: everything up to the first
 * option that is not a global one, skipping the global options and their values.
 */
function commandWords(argv: readonly string[]): { words: string[]; at: number[] } {
  const words: string[] = [];
  const at: number[] = [];
  const valued = new Set(GLOBAL_OPTIONS.filter((o) => o.kind === 'string').map((o) => `--${o.name}`));
  const flags = new Set(GLOBAL_OPTIONS.filter((o) => o.kind === 'boolean').map((o) => `--${o.name}`));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (valued.has(a)) {
      i++;
      continue;
    }
    if (flags.has(a) || a === '-h' || [...valued, ...flags].some((g) => a.startsWith(`${g}=`))) continue;
    if (a.startsWith('-')) break;
    words.push(a);
    at.push(i);
  }
  return { words, at };
}

export type { CliIo };

function findCommand(words: string[]): { command: CommandEntry; rest: string[] } | null {
  let best: { command: CommandEntry; rest: string[] } | null = null;
  for (const command of COMMAND_ENTRIES) {
    const n = command.path.length;
    if (words.length >= n && command.path.every((w, i) => words[i] === w)) {
      if (!best || n > best.command.path.length) best = { command, rest: words.slice(n) };
    }
  }
  return best;
}

export function parseArgs(argv: string[], specs: OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const out: ParsedArgs = { positionals: [], options: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) {
      const near = didYouMean(name, [...byName.keys()]);
      throw new UsageError(`Unknown option --${name}${near ? `. Did you mean --${near}?` : ''}`);
    }
    let value: string | boolean;
    if (spec.kind === 'boolean') {
      value = eq === -1 ? true : arg.slice(eq + 1) !== 'false';
    } else if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    if (spec.multiple) {
      const prev = out.options[name];
      out.options[name] = [...(Array.isArray(prev) ? prev : []), String(value)];
    } else {
      out.options[name] = value;
    }
  }
  return out;
}

function helpText(): string {
  const lines = ['vendesk — bulk airtime, data, electricity, cable TV and SMS from the command line', '', 'Usage: vendesk <command> [options]', '', 'Commands:'];
  const width = Math.max(...COMMAND_ENTRIES.map((c) => c.path.join(' ').length));
  for (const c of COMMAND_ENTRIES) lines.push(`  ${c.path.join(' ').padEnd(width)}  ${c.summary}`);
  lines.push('', 'Global options:');
  for (const o of GLOBAL_OPTIONS) lines.push(`  --${o.name.padEnd(10)} ${o.description}`);
  lines.push(
    '',
    'Exit codes: 0 done, 1 failed (or a bulk job is paused, interrupted or needs attention), 2 usage error, 3 the input had invalid rows.',
    'Amounts in JSON are Naira. Shell completion: vendesk completion bash|zsh',
    "Run 'vendesk <command> --help' for a command's options.",
  );
  return lines.join('\n');
}

function groupHelp(word: string, group: CommandEntry[]): string {
  const width = Math.max(...group.map((c) => c.path.join(' ').length));
  return [
    `vendesk ${word} — its commands:`,
    '',
    ...group.map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    `Run 'vendesk ${word} <command> --help' for a command's options.`,
  ].join('\n');
}

function commandHelp(c: CommandEntry): string {
  const lines = [c.summary, '', `Usage: ${c.usage}`];
  if (c.options.length) {
    lines.push('', 'Options:');
    for (const o of c.options) lines.push(`  --${o.name.padEnd(14)} ${o.description}`);
  }
  if (c.exitCodes) {
    lines.push('', 'Exit codes:');
    for (const [code, meaning] of Object.entries(c.exitCodes)) lines.push(`  ${code}  ${meaning}`);
  }
  return lines.join('\n');
}

/**
 * One line on stderr (stdout stays one JSON document with --json): a token given as an option
 * is visible to other users in the process list, kept in shell history, and written by
 * `npm run` to its logs (~/.npm/_logs, readable by others).
 */
export function tokenOnCommandLineWarning(command: Pick<CommandEntry, 'path'>): string {
  const instead = command.path.join(' ') === 'sandbox' ? '--token-file FILE or VENDESK_SANDBOX_TOKENS' : 'VENDESK_TOKEN in the environment';
  return `Warning: --token on the command line can be seen by other users of this computer and is kept in shell history and npm's logs; use ${instead} instead.`;
}

/** The command with these words, loaded when it runs. */
async function loadCommand(path: readonly string[]): Promise<CliCommand['run']> {
  const { COMMANDS } = await import('./commands');
  const found = COMMANDS.find((c) => c.path.join(' ') === path.join(' '));
  if (!found) throw new Error(`vendesk was built without the command '${path.join(' ')}': run npm run build again.`);
  return (ctx) => found.run(ctx);
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  // Everything below is printed through the one output layer (src/cli/terminal.ts).
  const screen = screenOf(io);
  // One rule for a failed command, with or without --json: the message and the hint on stderr; with
  // --json stdout also carries them as its one document.
  const fail = (code: number, error: { code: string; message: string; hint?: string }) => {
    if (json) screen.document({ error: { code: error.code, message: redactSecrets(error.message), ...(error.hint ? { hint: redactSecrets(error.hint) } : {}) } });
    screen.failure(error.message, error.hint);
    return code;
  };
  // A mistake: the same, said as vendesk's (`vendesk: …`).
  const usageFail = (message: string, more: string) => {
    if (json) screen.document({ error: { code: 'usage', message, hint: more } });
    screen.failure(message, more, 'vendesk');
    return EXIT.usage;
  };
  const version = () => {
    if (json) screen.document({ version: APP_VERSION });
    else screen.out(tt`${APP_VERSION}`);
    return EXIT.ok;
  };
  const { words, at } = commandWords(argv);
  const found = findCommand(words);
  if (!found) {
    if (words.length === 0) {
      const asked = argv.includes('--help') || argv.includes('-h') || argv.length === 0;
      if (asked) {
        screen.out(vendeskLines(helpText()));
        return EXIT.ok;
      }
      if (argv.includes('--version')) return version();
      const option = argv.find((a) => a.startsWith('-') && !GLOBAL_OPTIONS.some((o) => a === `--${o.name}` || a.startsWith(`--${o.name}=`)));
      return usageFail(option ? `${option} is not a global option, and no command was given.` : 'No command was given.', "Run 'vendesk --help' for the commands.");
    }
    const near =
      didYouMean(
        words.slice(0, 2).join(' '),
        COMMAND_ENTRIES.map((c) => c.path.join(' ')),
      ) ?? didYouMean(words[0], [...new Set(COMMAND_ENTRIES.map((c) => c.path[0]))]);
    // A group's word alone (`vendesk bulk`): its commands, as help or as the mistake.
    const group = COMMAND_ENTRIES.filter((c) => c.path.length > 1 && c.path[0] === words[0]);
    if (group.length > 0 && words.length === 1) {
      if (argv.includes('--help') || argv.includes('-h')) {
        screen.out(vendeskLines(groupHelp(words[0], group)));
        return EXIT.ok;
      }
      return usageFail(`'vendesk ${words[0]}' needs one of its commands: ${group.map((c) => c.path[1]).join(', ')}.`, `Run 'vendesk ${words[0]} --help' for what each does.`);
    }
    // The words that were taken for a command: two when the first names a group (`bulk stats`).
    const named = COMMAND_ENTRIES.some((c) => c.path.length > 1 && c.path[0] === words[0]) ? words.slice(0, 2) : words.slice(0, 1);
    return usageFail(`'${named.join(' ')}' is not a vendesk command.${near ? ` Did you mean 'vendesk ${near}'?` : ''}`, "Run 'vendesk --help' for the commands.");
  }
  const { command } = found;
  // A two-line message (what would be bought, then how to go ahead) says what to do itself.
  const usage = (error: UsageError) => {
    const [first, ...rest] = error.message.split('\n');
    return usageFail(first, rest.length > 0 ? rest.join(' ') : `Run 'vendesk ${command.path.join(' ')} --help' for its options.`);
  };
  // The command's words are taken out wherever they stood; everything else is its arguments.
  const taken = new Set(at.slice(0, command.path.length));
  const rest = argv.filter((_, i) => !taken.has(i));
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, [...GLOBAL_OPTIONS, ...command.options]);
  } catch (error) {
    if (error instanceof UsageError) return usage(error);
    throw error;
  }
  if (args.options.help) {
    screen.out(vendeskLines(commandHelp(command)));
    return EXIT.ok;
  }
  if (args.options.version) return version();
  if (args.options.token !== undefined) screen.note(tokenOnCommandLineWarning(command));

  const env = io.env;
  const dataDir = (args.options['data-dir'] as string | undefined) ?? defaultDataDir(env);
  const profile = args.options.profile as string | undefined;
  const baseUrl = (args.options['base-url'] as string | undefined) ?? (profile ? undefined : env.VENDESK_BASE_URL);
  const token = (args.options.token as string | undefined) ?? env.VENDESK_TOKEN;
  if (token) registerSecret(token);
  let app: App | null = null;
  let onSigint: (() => void) | null = null;
  // Ctrl-C aborts the signal of the command's calls (a bulk job pauses instead: see bulk submit).
  const controller = new AbortController();
  const interrupted = new Promise<void>((resolve) => {
    onSigint = () => {
      controller.abort();
      resolve();
    };
    process.once('SIGINT', onSigint);
  });
  const openApp = async (): Promise<App> => {
    if (!app) {
      // The app (its database, services and the embedded sandbox) is loaded by the first command
      // that uses it, not before: `--help`, `--version` and usage mistakes never load it.
      const { createApp } = await import('../main/app');
      app = await createApp({
        dataDir,
        shell: 'cli',
        env,
        // The command line names files by their paths.
        filePolicy: namedPathsPolicy,
        ...(baseUrl && token ? { connection: { baseUrl, token, kind: 'live' as const } } : {}),
        ...(profile ? { profile } : {}),
      });
      // Outcomes the team database missed while it was unreachable are written first (on a desktop
      // that has joined a team: only there is the team code, and its database driver, loaded).
      if (teamLink(app)) {
        const retry = await import('../main/team/teamOutcomeRetry');
        if (retry.isTeamCommand(command.path)) await retry.writePendingTeamOutcomes(app);
      }
    }
    return app;
  };

  try {
    if (profile && args.options['base-url'] !== undefined) {
      return usageFail('--profile and --base-url name two different connections; give one of them.', "Run 'vendesk --help' for the global options.");
    }
    if (baseUrl && !token) {
      return fail(EXIT.usage, { code: 'token_missing', message: '--base-url needs a token.', hint: 'Set VENDESK_TOKEN in the environment.' });
    }
    // The command's code (and its output shape) loads only now: see src/cli/commandEntries.ts.
    const run = await loadCommand(command.path);
    const result = await run({
      args,
      json,
      dataDir,
      interrupted,
      signal: controller.signal,
      // The contract and dispatch load with the first call: --help and --version never build their schemas.
      call: async (name, input) => (await import('./callOrThrow')).callOrThrow(await openApp(), name, input, { signal: controller.signal }),
      stdout: screen.out,
      env,
      progress: screen.note,
      app: openApp,
    });
    if (json) screen.document(result.json);
    else screen.out(result.text);
    if (!result.failure) return EXIT.ok;
    screen.failure(result.failure.message, result.failure.hint);
    return result.failure.exitCode;
  } catch (error) {
    if (error instanceof UsageError) return usage(error);
    if (error instanceof AppError) return fail(error.code === 'awaiting_approval' ? EXIT.awaitingApproval : EXIT.failed, cliError(error));
    return fail(EXIT.failed, { code: 'internal', message: error instanceof Error ? error.message : String(error) });
  } finally {
    if (onSigint) process.removeListener('SIGINT', onSigint);
    if (app) await (app as App).close();
  }
}
