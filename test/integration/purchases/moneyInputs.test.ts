/**
 * Amounts of Naira at the edges that are not the window: the CLI's money options go through the
 * shared parser (a bad one is a usage error, exit 2, that names the option and says what to type;
 * nothing is bought), and the contract refuses amounts that are not whole kobo. Checked against
 * the sandbox's own log and wallet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nairaToKobo } from '../../../src/shared/money';
import { parseSandboxArgs } from '../../../src/sandbox/standalone';
import { refusal } from '../../support/refusal';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import type { TestApp } from '../../support/testApp';
import { PHONE, account, cli, startPurchaseTestApp } from './purchaseHelpers';

describe('money typed outside the window', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startPurchaseTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const buy = (amount: string, meter = account('1234')) =>
    cli(t, ['buy', 'electricity', '--disco', 'IKEDC', '--meter', meter, '--type', 'PREPAID', '--amount', amount, '--phone', PHONE, '--yes']);

  it.each([
    ['1e5', /in full, like 100,000/],
    ['5k', /in full/],
    ['5.000,00', /point for kobo and commas between thousands/],
    ['-5000', /cannot be negative/],
    ['5000.555', /at most two digits after the point/],
    ['50,00', /point for kobo/],
    ['0', /above ₦0/],
  ])('buy electricity --amount %s is a usage error that says what to type, and buys nothing', async (amount, reason) => {
    const logBefore = (await sandboxLog(t)).length;
    const walletBefore = await sandboxWalletKobo(t);
    const r = await buy(amount);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--amount "${amount}" is not an amount vendesk reads.`);
    expect(r.stderr).toMatch(reason);
    expect((await sandboxLog(t)).length).toBe(logBefore);
    expect(await sandboxWalletKobo(t)).toBe(walletBefore);
  });

  it('buy electricity --amount "₦5,000.50" buys exactly ₦5,000.50, as the service logs and charges it', async () => {
    const walletBefore = await sandboxWalletKobo(t);
    const meter = account('1234');
    const r = await buy('₦5,000.50', meter);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'success', amount: 5000.5 });
    const entries = (await sandboxLog(t)).filter((e) => e.description.includes(meter));
    expect(entries.map((e) => e.amount)).toEqual(['NGN 5,000.50']);
    const charged = (entries[0] as unknown as { transaction_cost: number }).transaction_cost;
    expect(walletBefore - (await sandboxWalletKobo(t))).toBe(nairaToKobo(charged));
  });

  it.each([
    ['--max-total', '5k'],
    ['--max-total', '1e5'],
    ['--confirm-total', '1.000,00'],
    ['--confirm-total', '-25000'],
  ])('bulk submit %s %s is a usage error naming the option', async (option, value) => {
    const r = await cli(t, ['bulk', 'submit', 'no-such-file.csv', '--kind', 'airtime', '--yes', option, value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${option} "${value}" is not an amount vendesk reads.`);
  });

  it('the sandbox command reads --balance with the same reader', () => {
    expect(parseSandboxArgs(['--balance', '1,000,000.50']).options.initialBalanceNaira).toBe(1_000_000.5);
    expect(parseSandboxArgs(['--balance', '0']).options.initialBalanceNaira).toBe(0);
    expect(() => parseSandboxArgs(['--balance', '1e5'])).toThrow('--balance "1e5" is not an amount the sandbox reads. Type the amount in full');
    expect(() => parseSandboxArgs(['--balance', '5k'])).toThrow(/--balance "5k"/);
  });

  it('numbers that are not amounts are read in digits only (--limit 1e2 is refused)', async () => {
    const r = await cli(t, ['logs', '--limit', '1e2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--limit must be a number written in digits');
  });

  it('the contract refuses an amount that is not whole kobo, and nothing is bought', async () => {
    const logBefore = (await sandboxLog(t)).length;
    const error = await refusal(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 500_000.5, phone: PHONE }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe('Amounts are whole kobo.');
    const huge = await refusal(t.call('purchases.buyElectricity', { disco: 'IKEDC', meter: account('1234'), vendType: 'PREPAID', amountKobo: 1e300, phone: PHONE }));
    expect(huge.code).toBe('invalid_input');
    expect((await sandboxLog(t)).length).toBe(logBefore);
  });

  it('the contract refuses a typed LIVE total that is not an amount, with the reason', async () => {
    const error = await refusal(t.call('bulk.confirm', { jobId: '00000000-0000-4000-8000-000000000000', typedTotal: '1e5' }));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toMatch(/^The total typed to confirm, 1e5, is not an amount\. Type the amount in full/);
  });
});
