/** Buys MTN airtime at the sandbox through the real client, as the Purchases page does. */
import type { TestApp } from '../../support/testApp';

export async function buyAirtimeFor(app: TestApp, items: [phone: string, naira: number][]): Promise<string[]> {
  const client = app.app.client();
  const mtn = (await client.airtimeCatalog()).find((p) => p.network === 'MTN');
  if (!mtn) throw new Error('the sandbox catalog has no MTN airtime');
  const result = await client.purchaseAirtime(
    items.map(([phoneNumber, amount]) => ({ phoneNumber, amount, network: mtn.network, productCode: mtn.productCode, operator: mtn.operator, region: mtn.region })),
  );
  if (result.kind !== 'success') throw new Error(`airtime purchase answered ${result.kind}`);
  return result.data.references;
}
