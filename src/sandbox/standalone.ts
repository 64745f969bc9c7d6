/**
 * `vendesk sandbox` / `npm run sandbox -- --port 4010 --token demo-token [--db FILE]
 * [--seed-history N] [--balance NAIRA] [--host H] [--latency-ms N]`: runs until SIGINT/SIGTERM.
 */
import { parseNairaText } from '../shared/money';
import { startSandbox, type SandboxOptions } from './index';

export interface SandboxCliArgs {
  options: SandboxOptions;
  help: boolean;
}

export const SANDBOX_USAGE = `Usage: vendesk sandbox [--port N] --token T [--token T2 ...] [--db FILE] [--seed-history N] [--balance NAIRA] [--host H] [--latency-ms N]

  --port N           port to listen on (0 or omitted: a free port)
  --token T          a bearer token that is an organisation (repeatable)
  --any-token        accept any bearer token as its own organisation
  --db FILE          keep state in this SQLite file (survives restarts); default in memory
  --seed-history N   give each new token N past log entries over the last 90 days
  --balance NAIRA    starting wallet of each organisation, like 1000000 or 1,000,000 (default 1,000,000)
  --host H           interface to bind (default 127.0.0.1)
  --latency-ms N     answer every request N ms later (a service far away; default 0)
  --quiet            no diagnostics
Tokens starting with "unconfigured-" are always accepted as unconfigured organisations.`;

function numberArg(flag: string, value: string | undefined): number {
  if (value === undefined || value.trim() === '' || !Number.isFinite(Number(value)) || Number(value) < 0) {
    throw new Error(`${flag} needs a non-negative number, got ${value === undefined ? 'nothing' : `"${value}"`}`);
  }
  return Number(value);
}

export function parseSandboxArgs(argv: string[]): SandboxCliArgs {
  const options: SandboxOptions = { tokens: [] };
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    const text = (what: string) => {
      const v = value();
      if (!v) throw new Error(`${flag} needs ${what}`);
      return v;
    };
    switch (flag) {
      case '--port':
        options.port = numberArg(flag, value());
        break;
      case '--token':
        options.tokens!.push(text('a value'));
        break;
      case '--any-token':
        options.acceptAnyToken = true;
        break;
      case '--db':
        options.dbPath = text('a file name');
        break;
      case '--seed-history':
        options.seedHistory = Math.floor(numberArg(flag, value()));
        break;
      case '--balance': {
        const v = value() ?? '';
        const read = parseNairaText(v, { allowZero: true });
        if (!read.ok) throw new Error(`--balance "${v}" is not an amount the sandbox reads. ${read.reason}`);
        options.initialBalanceNaira = read.kobo / 100;
        break;
      }
      case '--host':
        options.host = text('a value');
        break;
      case '--latency-ms':
        options.latencyMs = Math.floor(numberArg(flag, value()));
        break;
      case '--quiet':
        options.quiet = true;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  return { options, help };
}

/** Runs the sandbox until SIGINT/SIGTERM; resolves with the process exit code. */
export async function runSandboxCli(argv: string[]): Promise<number> {
  let parsed: SandboxCliArgs;
  try {
    parsed = parseSandboxArgs(argv);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${SANDBOX_USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    return 0;
  }
  const { options } = parsed;
  if ((options.tokens ?? []).length === 0 && !options.acceptAnyToken) {
    process.stderr.write(`give at least one --token (or --any-token)\n\n${SANDBOX_USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  let handle;
  try {
    handle = await startSandbox(options);
  } catch (err) {
    process.stderr.write(`sandbox could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const tokens = options.tokens ?? [];
  process.stdout.write(`vendesk sandbox listening on ${handle.url}\n`);
  process.stdout.write(
    `  ${tokens.length} token(s)${options.acceptAnyToken ? ' (any token accepted)' : ''}; state ${options.dbPath ? `in ${options.dbPath}` : 'in memory'}` +
      `${options.seedHistory ? `; seeded ${options.seedHistory} entries per new token` : ''}${options.latencyMs ? `; ${options.latencyMs} ms added to every answer` : ''} (ready in ${Date.now() - started} ms)\n` +
      '  Press Ctrl+C to stop.\n',
  );
  const live = handle;
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stdout.write(`\n${signal}: stopping sandbox\n`);
      live.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
