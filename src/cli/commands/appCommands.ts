import { z } from 'zod';
import { formatNaira } from '../../shared/money';
import { command, numberOption } from '../cliCommand';
import { isoTime, naira } from '../jsonShape';
import { tt, vendeskLines } from '../terminal';

export const balanceCommand = command({
  path: ['balance'],
  summary: "Show the organisation's wallet balance",
  usage: 'vendesk balance [--json]',
  options: [],
  output: z.strictObject({ accountName: z.string(), balance: naira, currency: z.string(), accountNumber: z.string(), readAt: isoTime, connection: z.enum(['sandbox', 'live']) }),
  async run(ctx) {
    const app = await ctx.app();
    const b = await ctx.call('account.balance', {});
    return {
      json: { accountName: b.accountName, balance: b.balanceKobo / 100, currency: b.currency, accountNumber: b.accountNumber, readAt: b.readAt, connection: app.connection.kind },
      text: tt`${b.accountName}\nBalance: ${formatNaira(b.balanceKobo)} (${b.currency}, account ${b.accountNumber})\nConnection: ${app.connection.kind.toUpperCase()} ${app.connection.profileName}`,
    };
  },
});

export const sandboxCommand = command({
  path: ['sandbox'],
  summary: 'Run the standalone sandbox service until Ctrl-C',
  usage:
    'vendesk sandbox [--port 4010] [--token-file FILE] [--any-token] [--db FILE] [--seed-history N] [--balance NAIRA] [--shapes standard|alt|sparse] [--latency-ms N] [--quiet]  (tokens also from VENDESK_SANDBOX_TOKENS)',
  options: [
    { name: 'port', kind: 'string', description: 'Port on 127.0.0.1 (0 = any free port)' },
    { name: 'token-file', kind: 'string', description: 'File of the tokens the sandbox accepts, one a line (or env VENDESK_SANDBOX_TOKENS)' },
    { name: 'token', kind: 'string', description: 'A token the sandbox accepts (repeatable; others can see it: prefer --token-file)', multiple: true },
    { name: 'db', kind: 'string', description: 'SQLite file that keeps the state across restarts' },
    { name: 'seed-history', kind: 'string', description: 'Create N past log entries on first start' },
    { name: 'balance', kind: 'string', description: 'Starting wallet balance in Naira' },
    { name: 'host', kind: 'string', description: 'Address to listen on (default 127.0.0.1)' },
    { name: 'shapes', kind: 'string', description: 'Form of the messaging answers: standard (default), alt or sparse' },
    { name: 'latency-ms', kind: 'string', description: 'Answer every request N ms later (a service far away; default 0)' },
    { name: 'any-token', kind: 'boolean', description: 'Accept any bearer token as its own organisation' },
    { name: 'quiet', kind: 'boolean', description: 'No diagnostics' },
  ],
  output: z.strictObject({ stopped: z.literal(true) }),
  async run(ctx) {
    const argv: string[] = [];
    for (const [key, value] of Object.entries(ctx.args.options)) {
      // The global options are vendesk's, not the sandbox's (the sandbox takes --token itself).
      if (value === undefined || ['json', 'data-dir', 'profile', 'base-url', 'help', 'version'].includes(key)) continue;
      if (value === true) argv.push(`--${key}`);
      else if (value !== false) for (const v of Array.isArray(value) ? value : [value]) argv.push(`--${key}`, String(v));
    }
    // With --json, stdout is kept for the one JSON document: the address and notes go to stderr.
    const { runSandboxCli } = await import('../../sandbox/standalone');
    const say = (text: string) => (ctx.json ? ctx.progress : ctx.stdout)(vendeskLines(text.replace(/\n+$/, '')));
    const code = await runSandboxCli(argv, process.env, say);
    const text = tt`Sandbox stopped.`;
    if (code === 0) return { json: { stopped: true as const }, text };
    return { json: { stopped: true as const }, text, failure: { exitCode: code === 2 ? 2 : 1, message: 'The sandbox did not start: see the line above.' } };
  },
});

export const webCommand = command({
  path: ['web'],
  summary: 'Open vendesk in your browser: the window served on 127.0.0.1 until Ctrl-C',
  usage: 'vendesk web [--port N] [--data-dir DIR]',
  options: [{ name: 'port', kind: 'string', description: 'Port on 127.0.0.1 (default: the one used last time; 0 = any free port)' }],
  output: z.strictObject({ stopped: z.literal(true) }),
  async run(ctx) {
    const port = numberOption(ctx.args, 'port');
    // The web shell (its app with background loops, and the window's files) loads only for this command.
    const { serveWebShell } = await import('../../main/web/serveWebShell');
    // With --json, stdout is kept for the one JSON document: the address and notes go to stderr.
    await serveWebShell({
      dataDir: ctx.dataDir,
      port,
      say: ctx.json ? (text) => ctx.progress(vendeskLines(text.replace(/^\n+|\n+$/g, ''))) : (text) => ctx.stdout(vendeskLines(text.replace(/\n$/, ''))),
    });
    return { json: { stopped: true as const }, text: tt`vendesk stopped.` };
  },
});
