/**
 * `vendesk` — the same services as the app, for scripted and scheduled work.
 * Global options: --data-dir, --base-url, --token (or VENDESK_DATA_DIR, VENDESK_BASE_URL,
 * VENDESK_TOKEN), --json (exactly one JSON document on stdout). Exit codes: 0 done, 1 failed,
 * 2 usage error, 3 the input had invalid rows.
 */
import { createApp, type App } from '../main/app';
import { defaultDataDir } from '../main/dataDir';
import { redactSecrets, registerSecret } from '../main/redact';
import { AppError } from '../shared/appError';
import { EXIT, UsageError, type CliCommand, type OptionSpec, type ParsedArgs } from './cliCommand';
import { COMMANDS } from './commands';

const GLOBAL_OPTIONS: OptionSpec[] = [
  { name: 'data-dir', kind: 'string', description: 'App data folder (default ~/.config/vendesk; env VENDESK_DATA_DIR)' },
  { name: 'base-url', kind: 'string', description: 'Use this service instead of the embedded sandbox (env VENDESK_BASE_URL)' },
  { name: 'token', kind: 'string', description: 'API token for --base-url; prefer env VENDESK_TOKEN (a token on the command line is seen by others and kept in logs)' },
  { name: 'json', kind: 'boolean', description: 'Print exactly one JSON document on stdout' },
  { name: 'help', kind: 'boolean', description: 'Show help' },
];

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

function findCommand(words: string[]): { command: CliCommand; rest: string[] } | null {
  let best: { command: CliCommand; rest: string[] } | null = null;
  for (const command of COMMANDS) {
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
    if (!spec) throw new UsageError(`Unknown option --${name}`);
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
  const width = Math.max(...COMMANDS.map((c) => c.path.join(' ').length));
  for (const c of COMMANDS) lines.push(`  ${c.path.join(' ').padEnd(width)}  ${c.summary}`);
  lines.push('', 'Global options:');
  for (const o of GLOBAL_OPTIONS) lines.push(`  --${o.name.padEnd(10)} ${o.description}`);
  lines.push('', 'Exit codes: 0 done, 1 failed, 2 usage error, 3 the input had invalid rows.', "Run 'vendesk <command> --help' for a command's options.");
  return lines.join('\n');
}

function commandHelp(c: CliCommand): string {
  const lines = [c.summary, '', `Usage: ${c.usage}`];
  if (c.options.length) {
    lines.push('', 'Options:');
    for (const o of c.options) lines.push(`  --${o.name.padEnd(14)} ${o.description}`);
  }
  return lines.join('\n');
}

/**
 * One line on stderr (stdout stays one JSON document with --json): a token given as an option
 * is visible to other users in the process list, kept in shell history, and written by
 * `npm run` to its logs (~/.npm/_logs, readable by others).
 */
export function tokenOnCommandLineWarning(command: CliCommand): string {
  const instead = command.path[0] === 'sandbox' ? '--token-file FILE or VENDESK_SANDBOX_TOKENS' : 'VENDESK_TOKEN in the environment';
  return `Warning: --token on the command line can be seen by other users of this computer and is kept in shell history and npm's logs; use ${instead} instead.`;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (code: number, error: { code: string; message: string; hint?: string }) => {
    const message = redactSecrets(error.message);
    const hint = error.hint ? redactSecrets(error.hint) : undefined;
    if (json) io.stdout(JSON.stringify({ error: { code: error.code, message, ...(hint ? { hint } : {}) } }));
    else io.stderr(`Error: ${message}${hint ? `\n${hint}` : ''}`);
    return code;
  };

  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  const found = findCommand(words);
  if (!found) {
    if (words.length === 0) {
      io.stdout(helpText());
      return argv.includes('--help') || argv.length === 0 ? EXIT.ok : EXIT.usage;
    }
    io.stderr(`Unknown command "${words.join(' ')}".\n\n${helpText()}`);
    return EXIT.usage;
  }
  const { command } = found;
  const usage = (error: UsageError) => {
    io.stderr(`${error.message}\n\n${commandHelp(command)}`);
    return EXIT.usage;
  };
  const rest = argv.slice(command.path.length);
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, [...GLOBAL_OPTIONS, ...command.options]);
  } catch (error) {
    if (error instanceof UsageError) return usage(error);
    throw error;
  }
  if (args.options.help) {
    io.stdout(commandHelp(command));
    return EXIT.ok;
  }
  if (args.options.token !== undefined) io.stderr(tokenOnCommandLineWarning(command));

  const env = io.env;
  const dataDir = (args.options['data-dir'] as string | undefined) ?? defaultDataDir(env);
  const baseUrl = (args.options['base-url'] as string | undefined) ?? env.VENDESK_BASE_URL;
  const token = (args.options.token as string | undefined) ?? env.VENDESK_TOKEN;
  if (token) registerSecret(token);
  let app: App | null = null;
  let onSigint: (() => void) | null = null;
  const interrupted = new Promise<void>((resolve) => {
    onSigint = () => resolve();
    process.once('SIGINT', onSigint);
  });

  try {
    if (baseUrl && !token) {
      return fail(EXIT.usage, { code: 'token_missing', message: '--base-url needs a token.', hint: 'Set VENDESK_TOKEN in the environment.' });
    }
    const result = await command.run({
      args,
      json,
      interrupted,
      stdout: io.stdout,
      progress: (m) => io.stderr(redactSecrets(m)),
      app: async () => {
        if (!app) {
          app = await createApp({
            dataDir,
            shell: 'cli',
            env,
            ...(baseUrl && token ? { connection: { baseUrl, token, kind: 'live' as const } } : {}),
          });
        }
        return app;
      },
    });
    io.stdout(json ? JSON.stringify(result.json) : result.text);
    return result.exitCode ?? EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) return usage(error);
    if (error instanceof AppError) return fail(EXIT.failed, error);
    return fail(EXIT.failed, { code: 'internal', message: error instanceof Error ? error.message : String(error) });
  } finally {
    if (onSigint) process.removeListener('SIGINT', onSigint);
    if (app) await (app as App).close();
  }
}
