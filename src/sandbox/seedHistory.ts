/**
 * Demo history: N past log entries spread over the last 90 days, varied in type, network and
 * status (mostly SUCCESS, some FAILED), every one final. The wallet is consistent with it: each
 * entry's transaction_cost is amount − commission, failures were refunded, and the wallet's
 * balance is what remained after the history (the top-ups that paid for it are outside the log).
 * One transaction and one prepared statement: 1,000,000 entries take seconds.
 */
import type { Network } from '../shared/phone';
import { koboToWireText } from '../shared/money';
import { AIRTIME_CATALOG, AIRTIME_COMMISSION_BP, CABLE_CATALOG, DATA_CATALOG, DATA_COMMISSION_BP, DISCO_REGION, ELECTRICITY_CATALOG, TARIFF_NAIRA_PER_KWH } from './catalogs';
import type { OrgState, SandboxCore } from './core';
import { electricityToken } from './customers';
import type { DataPlan } from '../shared/wire';
import { randomDraws, seededRandom } from './randomData';

const DAY_MS = 86_400_000;

const NETWORK_WEIGHTS: [Network, number][] = [
  ['MTN', 0.45],
  ['AIRTEL', 0.3],
  ['GLOBACOM', 0.15],
  ['9MOBILE', 0.1],
];
const AIRTIME_AMOUNTS = [100, 100, 200, 200, 500, 500, 500, 1000, 1000, 1500, 2000, 5000, 10000];
const ELECTRICITY_AMOUNTS = [1000, 2000, 3000, 5000, 5000, 10000, 10000, 20000, 50000];

const INSERT_POSITIONAL = `INSERT INTO log (org_id, transaction_id, partner_reference, phone_number, amount_kobo,
  cost_kobo, commission_kobo, type, network, operator, region, description, data_plan, status, outcome, final_at_ms,
  created_ms, updated_ms, account, vend_type, token, units) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

export function seedHistory(core: SandboxCore, org: OrgState, n: number): void {
  const { random: rand, pick, digits, network, mobileNumber } = randomDraws(seededRandom(org.id * 7919 + n));
  /** A number that is not one of the test numbers (ending 9999 fails by rule). */
  const phoneOf = (net: Network) => {
    let p = mobileNumber(net);
    if (p.endsWith('9999')) p = p.slice(0, -1) + '8';
    return p;
  };
  const accountNumber = (len: number) => {
    let a = String(1 + Math.floor(rand() * 9)) + digits(len - 1);
    if (/(0000|1111|2222|5555|9999)$/.test(a)) a = a.slice(0, -1) + '3';
    return a;
  };
  const plansByNetwork = new Map<Network, DataPlan[]>();
  for (const p of DATA_CATALOG) plansByNetwork.set(p.network, [...(plansByNetwork.get(p.network) ?? []), p]);

  const insert = core.db.prepare(INSERT_POSITIONAL);
  const now = core.now(org);
  const start = now - 90 * DAY_MS;
  const span = 90 * DAY_MS - 60_000;
  const step = span / n;

  core.db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const created = Math.floor(start + (i + rand()) * step);
      const failed = rand() < 0.06;
      const status = failed ? 'FAILED' : 'SUCCESS';
      const r = rand();
      const seq = String(i + 1).padStart(8, '0');
      const when = stamp(created);
      if (r < 0.75) {
        const isAirtime = r < 0.5;
        const net = network(NETWORK_WEIGHTS);
        const phone = phoneOf(net);
        if (isAirtime) {
          const product = AIRTIME_CATALOG.find((p) => p.network === net) ?? AIRTIME_CATALOG[0];
          const amount = pick(AIRTIME_AMOUNTS) * 100;
          const commission = Math.floor((amount * AIRTIME_COMMISSION_BP[net]) / 10_000);
          insert.run(
            org.id,
            `ATM${when}S${seq}`,
            `REQ${when}S${seq}`,
            phone,
            amount,
            amount - commission,
            commission,
            'AIRTIME',
            net,
            product.operator,
            product.region,
            `${net} airtime ${koboToWireText(amount)} to ${phone}`,
            '',
            status,
            status,
            created + 5000,
            created,
            created + 5000,
            phone,
            '',
            '',
            0,
          );
        } else {
          const plan = pick(plansByNetwork.get(net) ?? DATA_CATALOG);
          const amount = plan.amount * 100;
          const commission = Math.floor((amount * DATA_COMMISSION_BP[net]) / 10_000);
          insert.run(
            org.id,
            `DAT${when}S${seq}`,
            `REQ${when}S${seq}`,
            phone,
            amount,
            amount - commission,
            commission,
            'DATA',
            net,
            plan.operator,
            '',
            `${plan.description} to ${phone}`,
            plan.productCode,
            status,
            status,
            created + 5000,
            created,
            created + 5000,
            phone,
            '',
            '',
            0,
          );
        }
      } else if (r < 0.9) {
        const disco = pick(ELECTRICITY_CATALOG);
        const candidates = ELECTRICITY_AMOUNTS.filter((a) => a >= disco.minAmount && a <= disco.maxAmount);
        const amount = pick(candidates) * 100;
        const commission = Math.floor((amount * Math.round(disco.percentage * 100)) / 10_000);
        const meter = accountNumber(rand() < 0.7 ? 11 : 13);
        const prepaid = rand() < 0.85;
        const vend = prepaid ? 'PREPAID' : 'POSTPAID';
        const ref = `ELE${when}S${seq}`;
        const ok = status === 'SUCCESS';
        insert.run(
          org.id,
          ref,
          `RCPT${seq}${digits(4)}`,
          phoneOf(network(NETWORK_WEIGHTS)),
          amount,
          amount - commission,
          commission,
          'ELECTRICITY',
          disco.productCode,
          disco.name,
          DISCO_REGION[disco.productCode] ?? '',
          `${disco.productCode} ${vend} ${koboToWireText(amount)} for meter ${meter}`,
          '',
          status,
          status,
          created,
          created,
          created,
          meter,
          vend,
          ok && prepaid ? electricityToken(ref) : '',
          ok && prepaid ? Math.round((amount / 100 / TARIFF_NAIRA_PER_KWH) * 100) / 100 : 0,
        );
      } else {
        const bouquet = pick(CABLE_CATALOG);
        const amount = bouquet.amount * 100;
        const commission = Math.floor((amount * Math.round(bouquet.percentage * 100)) / 10_000);
        const card = accountNumber(10);
        insert.run(
          org.id,
          `CTV${when}S${seq}`,
          `RCPT${seq}${digits(4)}`,
          phoneOf(network(NETWORK_WEIGHTS)),
          amount,
          amount - commission,
          commission,
          'CABLETV',
          bouquet.network,
          bouquet.network,
          '',
          `${bouquet.description} for smartcard ${card}`,
          '',
          status,
          status,
          created,
          created,
          created,
          card,
          '',
          '',
          0,
        );
      }
    }
  })();
  core.relayout(org);
}
