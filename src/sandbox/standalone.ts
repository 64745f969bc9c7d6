/**
 * `vendesk sandbox` / `npm run sandbox -- --port 4010 --token-file tokens.txt [--db FILE]
 * [--seed-history N] [--balance NAIRA] [--host H] [--shapes standard|alt|sparse] [--latency-ms N]`:
 * runs until SIGINT/SIGTERM. Tokens come from a file (one a line) or `VENDESK_SANDBOX_TOKENS`, so
 * none has to be typed on a command line (where other users, shell history and npm's logs see it);
 * `--token T` still works.
 */
import fs from 'node:fs';
import { parseNairaText } from '../shared/money';
import { isShapeVariant, SHAPE_VARIANTS } from './answerShapes';
import { startSandbox, type SandboxOptions } from './index';

export interface SandboxCliArgs {
  options: SandboxOptions;
  help: boolean;
}

export const SANDBOX_USAGE = `Usage: vendesk sandbox [--port N] --token-file FILE [--db FILE] [--seed-history N] [--balance NAIRA] [--host H] [--shapes FORM] [--latency-ms N]

  --port N           port to listen on (0 or omitted: a free port)
  --token-file FILE  bearer tokens that are organisations, one a line (# starts a comment)
  --any-token        accept any bearer token as its own organisation
  --token T          a token on the command line (repeatable; others can see it: prefer a file)
  --db FILE          keep state in this SQLite file (survives restarts); default in memory
  --seed-history N   give each new token N past log entries over the last 90 days
  --balance NAIRA    starting wallet of each organisation, like 1000000 or 1,000,000 (default 1,000,000)
  --host H           interface to bind (default 127.0.0.1)
  --shapes FORM      form of the messaging answers: standard (default), alt or sparse
  --latency-ms N     answer every request N ms later (a service far away; default 0)
  --quiet            no diagnostics
Tokens may also come from VENDESK_SANDBOX_TOKENS (separated by commas or spaces).
Tokens starting with "unconfigured-" are always accepted as unconfigured organisations.`;

/** Tokens in a list: one a line, or separated by commas or spaces; `#` starts a comment. */
export function tokensFromText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => line.split(/[\s,]+/))
    .filter((token) => token !== '');
}

function tokensFromFile(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`--token-file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const tokens = tokensFromText(text);
  if (tokens.length === 0) throw new Error(`--token-file ${file} holds no token`);
  return tokens;
}

function numberArg(flag: string, value: string | undefined): number {
  if (value === undefined || value.trim() === '' || !Number.isFinite(Number(value)) || Number(value) < 0) {
    throw new Error(`${flag} needs a non-negative number, got ${value === undefined ? 'nothing' : `"${value}"`}`);
  }
  return Number(value);
}

export function parseSandboxArgs(argv: string[], env: NodeJS.ProcessEnv = {}): SandboxCliArgs {
  const options: SandboxOptions = { tokens: tokensFromText(env.VENDESK_SANDBOX_TOKENS ?? '') };
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
      case '--token-file':
        options.tokens!.push(...tokensFromFile(text('a file name')));
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
      case '--shapes': {
        const v = text(`one of ${SHAPE_VARIANTS.join(', ')}`);
        if (!isShapeVariant(v)) throw new Error(`--shapes must be one of ${SHAPE_VARIANTS.join(', ')}, got "${v}"`);
        options.shapes = v;
        break;
      }
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

/**
 * Runs the sandbox until SIGINT/SIGTERM; resolves with the process exit code. `say` prints what a
 * person reads (its address, how to stop it): stdout unless the caller keeps stdout for JSON.
 */
export async function runSandboxCli(argv: string[], env: NodeJS.ProcessEnv = process.env, say: (text: string) => void = (text) => process.stdout.write(text)): Promise<number> {
  let parsed: SandboxCliArgs;
  try {
    parsed = parseSandboxArgs(argv, env);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n\n${SANDBOX_USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    say(`${SANDBOX_USAGE}\n`);
    return 0;
  }
  const { options } = parsed;
  if ((options.tokens ?? []).length === 0 && !options.acceptAnyToken) {
    process.stderr.write(`give the tokens to accept: --token-file FILE or VENDESK_SANDBOX_TOKENS (or --any-token)\n\n${SANDBOX_USAGE}\n`);
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
  say(`vendesk sandbox listening on ${handle.url}\n`);
  say(
    `  ${tokens.length} token(s)${options.acceptAnyToken ? ' (any token accepted)' : ''}; state ${options.dbPath ? `in ${options.dbPath}` : 'in memory'}` +
      `${options.seedHistory ? `; seeded ${options.seedHistory} entries per new token` : ''}${options.shapes && options.shapes !== 'standard' ? `; messaging answers in the ${options.shapes} form` : ''}${options.latencyMs ? `; ${options.latencyMs} ms added to every answer` : ''} (ready in ${Date.now() - started} ms)\n` +
      '  Press Ctrl+C to stop.\n',
  );
  const live = handle;
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      say(`\n${signal}: stopping sandbox\n`);
      live.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
