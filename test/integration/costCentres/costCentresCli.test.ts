/**
 * Cost centres end to end through the CLI, against the sandbox over HTTP: a LibreOffice-made
 * workbook with a Department column bought with `bulk submit`, two purchases made straight on the
 * sandbox's API by another client (one named in an imported recipients list, one not), then
 * `report spend --by cost-centre` checked against the sandbox's own log, and a change of a
 * purchase's cost centre recorded and moving its spend.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allLogEntries, type LogRow } from '../../support/serviceLogEntries';
import { ROOT } from '../../support/testApp';
import { until } from '../../support/until';
import { runVendesk } from '../../support/vendeskProcess';
import { runBulkCli, startCliSandbox, stopCliSandbox, writeCsv, type CliSandbox } from '../bulk/bulkTestFiles';

const TOKEN = 'cost-centres-cli-org';
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'imports', 'libreoffice-airtime-departments.xlsx');

/** The fixture's rows: phone → department ('' for the row that gives none). */
const DEPARTMENTS: Record<string, string> = {
  '08031000001': 'Sales',
  '08031000002': 'Sales',
  '08031000003': 'Finance',
  '08031000004': 'Operations',
  '08031000005': 'Operations',
  '08031000006': 'Human Resources',
  '08031000007': '',
};
/** Bought on the API by another client: one the recipients list names, one nobody names. */
const LISTED = '08039000001';
const UNLISTED = '08039000002';

interface ServiceEntry extends LogRow {
  transaction_cost: number;
  commission: number;
  created_at: string;
}

let cli: CliSandbox;
const vendesk = (args: string[]) => runBulkCli(TOKEN, args, cli.dataDir, cli.sandbox.url);
const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };

const serviceLog = () => allLogEntries<ServiceEntry>(cli.sandbox.url, TOKEN);

/** The sandbox's log once every entry is final (airtime settles a few seconds after it is accepted). */
async function settledLog(count: number): Promise<ServiceEntry[]> {
  let log: ServiceEntry[] = [];
  await until(async () => {
    log = await serviceLog();
    return log.length >= count && log.every((e) => e.status === 'SUCCESS' || e.status === 'FAILED');
  }, `${count} final entries in the service's log`);
  return log;
}

const kobo = (amount: string) => Math.round(Number(amount.replace(/[^0-9.]/g, '')) * 100);

beforeAll(async () => {
  cli = await startCliSandbox(TOKEN);
});
afterAll(() => stopCliSandbox(cli));

it('a Department column is kept on each purchase; recipients rule the rest; spend by cost centre equals the service log; a change is recorded', { timeout: 180_000 }, async () => {
  const submit = await vendesk(['bulk', 'submit', FIXTURE, '--kind', 'airtime', '--yes', '--confirm-total', '1300']);
  expect(submit.code, submit.stderr).toBe(0);
  expect(JSON.parse(submit.stdout)).toMatchObject({ items: 7, accepted: 7 });

  // Another client buys on the same account, straight on the API: vendesk did not make these.
  const products = (await (await fetch(`${cli.sandbox.url}/AirtimeList`, { headers: auth })).json()) as {
    data: { network: string; productCode: string; operator: string; region: string }[];
  };
  const mtn = products.data.find((p) => p.network === 'MTN');
  expect(mtn).toBeDefined();
  for (const phone of [LISTED, UNLISTED]) {
    const res = await fetch(`${cli.sandbox.url}/purchaseAirtime`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify([{ amount: 400, phoneNumber: phone, network: 'MTN', productCode: mtn?.productCode, operator: mtn?.operator, region: mtn?.region }]),
    });
    expect(res.status).toBe(202);
  }

  const list = writeCsv(cli.dataDir, 'recipients.csv', [
    ['Phone', 'Name', 'Dept'],
    [LISTED, 'Driver pool', 'Logistics'],
    ['08031000007', 'Gbenga Alli', 'Facilities'],
  ]);
  const imported = await vendesk(['recipients', 'import', list]);
  expect(imported.code, imported.stderr).toBe(0);
  expect(JSON.parse(imported.stdout)).toMatchObject({ rows: 2, phones: 2 });

  const log = await settledLog(9);
  const centreOf = (phone: string) => DEPARTMENTS[phone] || (phone === LISTED ? 'Logistics' : phone === '08031000007' ? 'Facilities' : 'Unassigned');
  const expected = new Map<string, { purchases: number; faceKobo: number; costKobo: number }>();
  for (const e of log.filter((x) => x.status === 'SUCCESS')) {
    const c = expected.get(centreOf(e.phone_number)) ?? { purchases: 0, faceKobo: 0, costKobo: 0 };
    c.purchases++;
    c.faceKobo += kobo(e.amount);
    c.costKobo += Math.round(e.transaction_cost * 100);
    expected.set(centreOf(e.phone_number), c);
  }
  expect([...expected.keys()].sort()).toEqual(['Facilities', 'Finance', 'Human Resources', 'Logistics', 'Operations', 'Sales', 'Unassigned']);

  // The Lagos days the log's entries fall on.
  const lagosDay = (iso: string) => new Date(Date.parse(`${iso.replace(' ', 'T').replace(/Z?$/, 'Z')}`) + 3_600_000).toISOString().slice(0, 10);
  const days = log.map((e) => lagosDay(e.created_at)).sort();
  const report = async () => {
    const r = await vendesk(['report', 'spend', '--from', days[0], '--to', days[days.length - 1], '--by', 'cost-centre']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { byCostCentre: { costCentre: string; purchases: number; faceValue: number; walletCost: number; types: { type: string }[] }[] };
  };
  const first = await report();
  expect(first.byCostCentre.map((c) => c.costCentre)).toEqual(['Facilities', 'Finance', 'Human Resources', 'Logistics', 'Operations', 'Sales', 'Unassigned']);
  for (const c of first.byCostCentre) {
    const want = expected.get(c.costCentre);
    expect({ centre: c.costCentre, purchases: c.purchases, face: Math.round(c.faceValue * 100), cost: Math.round(c.walletCost * 100) }).toEqual({
      centre: c.costCentre,
      purchases: want?.purchases,
      face: want?.faceKobo,
      cost: want?.costKobo,
    });
    expect(c.types.map((t) => t.type)).toEqual(['AIRTIME']);
  }

  // The text table lays out the same cost centres.
  const text = await runVendesk(
    ['report', 'spend', '--from', days[0], '--to', days[days.length - 1], '--by', 'cost-centre', '--data-dir', cli.dataDir, '--base-url', cli.sandbox.url],
    {
      HOME: cli.dataDir,
      VENDESK_TOKEN: TOKEN,
    },
  );
  expect(text.stdout).toMatch(/Cost centre\s+Type\s+Purchases\s+Face value\s+Wallet cost\s+Commission/);
  expect(text.stdout).toMatch(/Human Resources\s+AIRTIME\s+1\s+₦120\.00/);

  // A purchase moved from Finance to Sales: recorded, and its spend moves with it.
  const finance = log.find((e) => e.phone_number === '08031000003');
  const set = await vendesk(['cost-centre', 'set', finance?.transaction_id ?? '', 'Sales']);
  expect(set.code, set.stderr).toBe(0);
  expect(JSON.parse(set.stdout)).toMatchObject({ reference: finance?.transaction_id, from: 'Finance', to: 'Sales', actorKind: 'desktop' });
  const history = await vendesk(['cost-centre', 'history', finance?.transaction_id ?? '']);
  expect(JSON.parse(history.stdout)).toMatchObject([{ from: 'Finance', to: 'Sales' }]);
  const after = await report();
  expect(after.byCostCentre.find((c) => c.costCentre === 'Finance')).toBeUndefined();
  expect(after.byCostCentre.find((c) => c.costCentre === 'Sales')?.purchases).toBe(3);

  // A purchase vendesk did not make is refused, with what to do instead.
  const notOurs = log.find((e) => e.phone_number === UNLISTED);
  const refused = await vendesk(['cost-centre', 'set', notOurs?.transaction_id ?? '', 'Sales']);
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout).error.message).toMatch(/No purchase of vendesk on this connection has the reference/);
});
