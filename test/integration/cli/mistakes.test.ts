/**
 * Every mistake a script or a person makes on the command line gets one or two lines that name it
 * (and what was probably meant), exit 2, and nothing bought — with the global options before the
 * command or after it. Failures the service or vendesk refuse exit 1 with a hint in the command
 * line's words: a command to run, never a page of the window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorDocument } from '../../../src/cli/jsonShape';
import { RECONCILE_CATEGORIES } from '../../../src/shared/contract/reconcile';
import { mtnPhone } from '../bulk/bulkTestFiles';
import { ORDERS, runInProcess, startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'cli-mistakes-org-77d0';
const PHONE = mtnPhone(42);
const JOB = '00000000-0000-4000-8000-000000000000';

/** The command's words and arguments, and the one or two lines it must print (the first line after "vendesk: "). */
const USAGE_MISTAKES: { args: string[]; says: string; then?: string }[] = [
  { args: ['synk'], says: "'synk' is not a vendesk command. Did you mean 'vendesk sync'?", then: "Run 'vendesk --help' for the commands." },
  { args: ['bulk', 'stats', JOB], says: "'bulk stats' is not a vendesk command. Did you mean 'vendesk bulk status'?" },
  { args: ['recieve'], says: "'recieve' is not a vendesk command.", then: "Run 'vendesk --help' for the commands." },
  { args: ['balance', '--jsn'], says: 'Unknown option --jsn. Did you mean --json?', then: "Run 'vendesk balance --help' for its options." },
  { args: ['buy', 'airtime', '--phone', PHONE, '--ammount', '500'], says: 'Unknown option --ammount. Did you mean --amount?' },
  { args: ['logs', '--limit'], says: '--limit needs a value' },
  { args: ['logs', '--limit', '1e2'], says: '--limit must be a number written in digits, like 50; got "1e2"' },
  { args: ['logs', '--from', '2026-11-20', '--to', '2026-11-01'], says: 'The From date 20 Nov 2026 is after the To date 1 Nov 2026. Swap them, or change one of them.' },
  { args: ['sync', '--from', '20-11-2026'], says: '--from must be a date written YYYY-MM-DD, got "20-11-2026"' },
  {
    args: ['buy', 'airtime', '--phone', PHONE, '--amount', '5k', '--yes'],
    says: '--amount "5k" is not an amount vendesk reads. Type the amount in full, like 5,000 or 2,500,000: vendesk does not read 5k.',
  },
  { args: ['buy', 'airtime', '--phone', PHONE, '--yes'], says: '--amount is required' },
  { args: ['buy', 'data', '--phone', PHONE, '--yes'], says: '--plan is required' },
  { args: ['buy', 'airtime', '--amount', '500', '--yes'], says: '--phone is required' },
  { args: ['bulk', 'validate', 'staff.csv', '--kind', 'tv'], says: '--kind must be airtime, data, electricity or cable, got "tv"' },
  { args: ['bulk', 'validate', '--kind', 'airtime'], says: 'Name the spreadsheet: vendesk bulk … FILE' },
  { args: ['bulk', 'status'], says: 'Name the job: vendesk bulk … JOB_ID' },
  { args: ['bulk', 'export', JOB, '--out', 'results.pdf'], says: '--out must end in .xlsx or .csv, got "results.pdf"' },
  { args: ['bulk', 'export', JOB], says: '--out is required' },
  { args: ['bulk', 'template', 'vouchers', '--out', 'x.xlsx'], says: 'The kind must be one of airtime, data, electricity, cable, contacts, got "vouchers"' },
  { args: ['bulk', 'template', 'data', '--out', 'template.pdf'], says: '--out must end in .xlsx or .csv, got "template.pdf"' },
  { args: ['sandbox', 'export', '--out', 'export.xlsx'], says: '--out must end in .csv, got "export.xlsx"' },
  {
    args: ['bulk', 'caps', '--per-job', 'lots'],
    says: '--per-job "lots" is not an amount vendesk reads. That is not an amount. Type the amount in Naira, like 5000, 5,000, 5,000.50 or ₦5,000, or off for no cap.',
  },
  { args: ['bulk', 'submit', 'staff.csv', '--kind', 'airtime'], says: 'Add --yes to confirm: this spends money from the wallet.' },
  { args: ['purchases', '--kind', 'tv'], says: '--kind must be electricity, cable, airtime or data, got "tv"' },
  { args: ['purchases', '--limit', '0'], says: '--limit must be a whole number from 1 to 500, got "0"' },
  { args: ['receipt'], says: 'Name the purchase: vendesk receipt ID (vendesk purchases lists them)' },
  { args: ['pending', 'resolve', 'P1', '--outcome', 'maybe', '--note', 'ticket 9'], says: '--outcome must be success or failed, got "maybe"' },
  { args: ['pending', 'resolve', 'P1', '--outcome', 'failed'], says: '--note is required' },
  { args: ['phonebook', 'contacts', '1', '--limit', '0'], says: '--limit must be a whole number from 1 to 1000, got "0"' },
  { args: ['phonebook', 'contacts'], says: 'The phonebook ID or NAME is required' },
  { args: ['reconcile', 'items', 'RUN', '--category', 'lost'], says: `--category must be one of ${RECONCILE_CATEGORIES.join(', ')}; got "lost"` },
  {
    args: ['reconcile', 'resolve', 'RUN', 'x', '--note', 'ticket 9'],
    says: '"x" is not an item number; item numbers are whole numbers from 1 (the seq of vendesk reconcile items)',
  },
  { args: ['reconcile', 'resolve', 'RUN', '--note', 'ticket 9'], says: 'Name the items: vendesk reconcile resolve RUN_ID SEQ [SEQ …] (vendesk reconcile items RUN_ID lists them)' },
  { args: ['reconcile', 'requery'], says: 'Name the run: vendesk reconcile … RUN_ID (vendesk reconcile runs lists them)' },
  { args: ['report', 'spend', '--from', '2026-11-01'], says: '--from and --to are required' },
  { args: ['completion', 'fish'], says: 'vendesk completes commands in bash and zsh, not "fish": vendesk completion bash|zsh' },
  { args: ['completion'], says: 'Name the shell: vendesk completion bash|zsh' },
  { args: ['catalog', 'tv'], says: 'Name the catalog: vendesk catalog airtime|data|cable|electricity' },
  {
    args: ['bulk'],
    says: "'vendesk bulk' needs one of its commands: validate, submit, resume, status, cancel, list, export, template, caps, adopt.",
    then: "Run 'vendesk bulk --help' for what each does.",
  },
];

let peer: CliPeer;
let logBefore = 0;

async function logCount(): Promise<number> {
  const r = await fetch(`${peer.sandbox.url}/logEntries?perPage=1&status=all`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  return ((await r.json()) as { data: { TotalRecords: number } }).data.TotalRecords;
}

beforeAll(async () => {
  peer = await startCliPeer(TOKEN);
  logBefore = await logCount();
});
afterAll(async () => {
  await peer?.close();
});

describe('a usage mistake: one or two lines, exit 2, nothing bought', () => {
  for (const m of USAGE_MISTAKES) {
    it(`vendesk ${m.args.join(' ')}`, async () => {
      for (const order of ORDERS) {
        const plain = await peer.run(m.args, order, { json: false });
        const lines = plain.stderr.trim().split('\n');
        expect(plain.code, `${order}: ${plain.stderr}`).toBe(2);
        expect(lines.length, plain.stderr).toBeLessThanOrEqual(2);
        expect(lines[0]).toBe(`vendesk: ${m.says}`);
        if (m.then) expect(lines[1]).toBe(m.then);
        expect(plain.stdout).toBe('');
        // With --json, stdout is still one document, the error of the usage kind.
        const json = await peer.run(m.args, order);
        expect(json.code).toBe(2);
        expect(errorDocument.parse(JSON.parse(json.stdout)).error).toMatchObject({ code: 'usage', message: m.says });
      }
    });
  }

  it('asks for --yes before buying airtime, says what it would buy, and buys nothing', async () => {
    for (const order of ORDERS) {
      const r = await peer.run(['buy', 'airtime', '--phone', PHONE, '--amount', '₦1,500'], order, { json: false });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `vendesk: Would buy ₦1,500.00 of MTN airtime for ${PHONE} on LIVE ${peer.sandbox.url}.`,
        'Nothing was bought. Add --yes to buy it.',
      ]);
    }
    expect(await logCount()).toBe(logBefore);
  });

  it('names two connections given at once, and a service address without a token', async () => {
    const both = await runInProcess(['--profile', 'Acme', 'balance', '--base-url', peer.sandbox.url, '--data-dir', peer.dataDir], { VENDESK_TOKEN: TOKEN });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--profile and --base-url name two different connections; give one of them.');
    const noToken = await runInProcess(['--data-dir', peer.dataDir, '--base-url', peer.sandbox.url, 'balance'], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr.trim()).toBe('Error: --base-url needs a token.\nSet VENDESK_TOKEN in the environment.');
  });

  it('says when only global options were given, and prints the help for --help alone', async () => {
    for (const order of ORDERS) {
      const none = await peer.run([], order, { json: false });
      expect(none.code).toBe(2);
      expect(none.stderr.trim()).toBe("vendesk: No command was given.\nRun 'vendesk --help' for the commands.");
      const help = await peer.run(['--help'], order, { json: false });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage: vendesk <command> [options]');
      const groupHelp = await peer.run(['buy', '--help'], order, { json: false });
      expect(groupHelp.code).toBe(0);
      expect(groupHelp.stdout).toContain('vendesk buy — its commands:');
      expect(groupHelp.stdout).toContain('buy airtime');
      const commandHelp = await peer.run(['bulk', 'status', '--help'], order, { json: false });
      expect(commandHelp.code).toBe(0);
      expect(commandHelp.stdout).toContain('Usage: vendesk bulk status JOB_ID [--json]');
      expect(commandHelp.stdout).toContain('1  the job is paused, interrupted or needs attention, or the command failed');
    }
  });
});

describe('a refusal: exit 1 and a hint in the command line’s words', () => {
  const REFUSALS: { args: () => string[]; code: string; message: string | RegExp; hint: string }[] = [
    {
      args: () => ['bulk', 'status', JOB],
      code: 'job_not_found',
      message: `There is no bulk job ${JOB}.`,
      hint: 'List the bulk jobs of this connection with `vendesk bulk list`.',
    },
    {
      args: () => ['receipt', 'no-such-purchase'],
      code: 'purchase_not_found',
      message: 'There is no purchase no-such-purchase on this connection.',
      hint: 'List the purchases of this connection with `vendesk purchases`.',
    },
    {
      args: () => ['reconcile', 'items', 'no-such-run'],
      code: 'run_not_found',
      message: 'There is no reconciliation run no-such-run on this connection.',
      hint: 'List the runs of this connection with `vendesk reconcile runs`.',
    },
    {
      args: () => ['phonebook', 'contacts', 'Nope'],
      code: 'phonebook_not_found',
      message: 'There is no phonebook "Nope".',
      hint: 'List them with: vendesk phonebook list, or create it with: vendesk phonebook create NAME',
    },
    {
      args: () => ['buy', 'airtime', '--phone', PHONE, '--amount', '50', '--yes'],
      code: 'invalid_purchase',
      message: '₦50.00 is below the MTN airtime minimum of ₦100.00.',
      hint: 'Correct the number, the network or the amount, then try again. Nothing was bought.',
    },
    {
      args: () => ['buy', 'data', '--phone', PHONE, '--plan', 'mtn-1gb-7d', '--yes'],
      code: 'invalid_purchase',
      message: 'Data plan code mtn-1gb-7d is not in the catalog; did you mean MTN-1GB-7D? (codes are case-sensitive).',
      hint: 'Correct the number or the plan, then try again. Nothing was bought.',
    },
    {
      args: () => ['buy', 'airtime', '--phone', '0803123', '--amount', '500', '--yes'],
      code: 'invalid_phone',
      message: /^0803123 is not a Nigerian mobile number/,
      hint: 'Enter a Nigerian mobile number, like 08031234567.',
    },
  ];

  for (const r of REFUSALS) {
    it(`vendesk ${r.args().join(' ')}`, async () => {
      for (const order of ORDERS) {
        const run = await peer.run(r.args(), order);
        expect(run.code, run.stdout).toBe(1);
        const { error } = errorDocument.parse(JSON.parse(run.stdout));
        expect(error.code).toBe(r.code);
        if (typeof r.message === 'string') expect(error.message).toBe(r.message);
        else expect(error.message).toMatch(r.message);
        expect(error.hint).toBe(r.hint);
        expect(`${error.message} ${error.hint}`).not.toMatch(/→| page\b|Settings/);
        // Without --json, the same on stderr: the message, then the hint.
        const plain = await peer.run(r.args(), order, { json: false });
        expect(plain.stderr.trim().split('\n').slice(-1)[0]).toBe(r.hint);
      }
    });
  }

  it('refuses airtime bought for the same number within 24 hours unless --repeat, saying how', async () => {
    const args = ['buy', 'airtime', '--phone', mtnPhone(43), '--amount', '120', '--yes'];
    expect((await peer.run(args)).code).toBe(0);
    const again = await peer.run(args, 'globals last');
    expect(again.code).toBe(1);
    const { error } = errorDocument.parse(JSON.parse(again.stdout));
    expect(error).toMatchObject({ code: 'recent_duplicate', hint: 'Add --repeat to buy it again, only if another purchase is wanted.' });
    expect(again.stderr).toContain(`Note: ₦120.00 of airtime was already bought for ${mtnPhone(43)} in the last 24 hours`);
    const repeated = await peer.run([...args, '--repeat']);
    expect(repeated.code).toBe(0);
  });

  it('nothing was bought by any mistake or refusal above', async () => {
    // Two airtime purchases, both in the previous test: nothing else reached the service.
    expect((await logCount()) - logBefore).toBe(2);
  });
});
