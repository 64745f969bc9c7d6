/**
 * `vendesk catalog data` (and cable, airtime, electricity) as text: every amount written as the
 * window writes it ("₦1,500.00", never "₦1500"), right-aligned in one column, each the price the
 * service's own catalog gives.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatNaira, nairaToKobo } from '../../../src/shared/money';
import { startCliPeer, type CliPeer } from './cliHarness';

const TOKEN = 'catalog-text-org-8d21';
let peer: CliPeer;

beforeAll(async () => {
  peer = await startCliPeer(TOKEN);
});
afterAll(() => peer.close());

async function serviceCatalog<T>(path: string): Promise<T[]> {
  const r = await fetch(`${peer.sandbox.url}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  return ((await r.json()) as { data: T[] }).data;
}

/** Where each line's amount ends: one column means one position. */
function amountEnds(lines: string[], amounts: string[]): number[] {
  return lines.map((line, i) => line.indexOf(amounts[i]) + amounts[i].length);
}

it("catalog data: each plan's price as ₦1,500.00, right-aligned, as the service lists it", async () => {
  const plans = await serviceCatalog<{ productCode: string; amount: number }>('/DataList');
  const run = await peer.run(['catalog', 'data'], 'globals first', { json: false });
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(plans.length);
  const amounts = plans.map((p) => formatNaira(nairaToKobo(p.amount)));
  lines.forEach((line, i) => {
    expect(line).toContain(plans[i].productCode);
    expect(line).toContain(amounts[i]);
  });
  expect(amounts.some((a) => a.includes(','))).toBe(true);
  expect(new Set(amountEnds(lines, amounts)).size).toBe(1);
  expect(run.stdout).not.toMatch(/₦\d{4,}/);
});

it('catalog cable and electricity: the same money and one column', async () => {
  const bouquets = await serviceCatalog<{ productCode: string; amount: number }>('/CableTVList');
  const cable = (await peer.run(['catalog', 'cable'], 'globals first', { json: false })).stdout.trim().split('\n');
  const amounts = bouquets.map((b) => formatNaira(nairaToKobo(b.amount)));
  expect(new Set(amountEnds(cable, amounts)).size).toBe(1);
  const discos = await serviceCatalog<{ minAmount: number; maxAmount: number }>('/ElectricityList');
  const electricity = (await peer.run(['catalog', 'electricity'], 'globals first', { json: false })).stdout.trim().split('\n');
  const ranges = discos.map((d) => `${formatNaira(nairaToKobo(d.minAmount))} – ${formatNaira(nairaToKobo(d.maxAmount))}`);
  electricity.forEach((line, i) => expect(line).toContain(ranges[i]));
  expect(new Set(amountEnds(electricity, ranges)).size).toBe(1);
});
