/**
 * `vendesk logs --from --to --all`: every entry of the period the service logged, each once, newest
 * first (read from the mirror a chunk at a time and printed as read; the mirror bench shows its
 * memory does not grow with the period), and the mistakes it refuses with exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay } from '../../../src/shared/localDates';
import type { LogEntry } from '../../../src/shared/wire';
import { allLogEntries } from '../../support/serviceLogEntries';
import { startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'logs-all-token';
/** Lagos is UTC+1 all year (written here apart from vendesk's own helpers). */
const lagosDayOf = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().slice(0, 10);

let peer: CliPeer;
let log: (LogEntry & { transaction_id: string })[];
let today: string;

beforeAll(async () => {
  peer = await startCliPeer(TOKEN, { seedHistory: 3600 });
  today = lagosDayOf((await peer.control.clock()).now);
  log = await allLogEntries(peer.sandbox.url, TOKEN);
});

afterAll(async () => {
  await peer?.close();
});

describe('vendesk logs --all', () => {
  it('prints every entry of a month the service logged, once each, newest first, and says how many', async () => {
    const from = shiftDay(today, -40);
    const to = shiftDay(today, -11);
    const r = await peer.run(['logs', '--from', from, '--to', to, '--all'], 'globals last', { json: false });
    expect(r.code).toBe(0);
    const expected = log.filter((e) => lagosDayOf(e.created_at) >= from && lagosDayOf(e.created_at) <= to);
    expect(expected.length).toBeGreaterThan(1000); // more than --limit could ever show
    const loggedIds = new Set(log.map((e) => e.transaction_id));
    const ids = r.stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/).pop() ?? '')
      .filter((word) => loggedIds.has(word));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(expected.map((e) => e.transaction_id).sort());
    // Newest first: the service's log order, newest first too.
    expect(ids).toEqual(expected.map((e) => e.transaction_id));
    expect(r.stdout).toContain(`${expected.length} shown of ${expected.length} matching`);
  }, 180_000);

  it('refuses --all with --json or with --limit, exit 2, saying what to do', async () => {
    const withJson = await peer.run(['logs', '--all', '--from', shiftDay(today, -3)]);
    expect(withJson.code).toBe(2);
    expect(withJson.stderr).toContain('vendesk export logs --out FILE.csv');
    const withLimit = await peer.run(['logs', '--all', '--limit', '10'], 'globals first', { json: false });
    expect(withLimit.code).toBe(2);
    expect(withLimit.stderr).toContain('--all and --limit cannot be used together');
  });
});
