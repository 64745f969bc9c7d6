/**
 * `npm run trace:single`: follows a single airtime purchase through the code, as it runs, from the
 * `purchases.buyTopUp` handler (the window's Airtime and data form, `vendesk buy airtime`) to the
 * service client's `purchaseAirtime`, and prints the files it passes through and how often it
 * comes back to one it had left — the same stepping and the same counts as `npm run trace:confirm`
 * (scripts/confirmationPath.ts), which says how they are made. Issue 39's measure of how straight a
 * single purchase is; docs/architecture.md quotes it.
 *
 * The purchase is ₦100 of MTN airtime on the embedded sandbox, bought through the same dispatch
 * the windows and the CLI use: the app's second purchase, so what its first builds once for the
 * app's life (its services, the team's gate, the cached catalog) is not counted as the path of
 * every purchase. `--json` prints one JSON document.
 */
import { startTestApp } from '../test/support/testApp';
import { printTrace, stepThrough, type Frame } from './confirmationPath';

const HANDLER = 'src/main/handlers/purchasesHandlers.ts';

/** Buys ₦100 of airtime while the worker steps through it; the steps up to its request. */
async function traceSingleAirtime(): Promise<Frame[][]> {
  const t = await startTestApp({ creditDelayMs: 500 });
  try {
    // The app's first purchase, of another number, builds what is built once (services, the gate, the catalog's cache).
    await t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031000009', amountKobo: 10_000, repeat: false });
    return await stepThrough(() => t.call('purchases.buyTopUp', { kind: 'airtime', phone: '08031000001', amountKobo: 10_000, repeat: false }));
  } finally {
    await t.close();
  }
}

if (require.main === module) {
  printTrace(traceSingleAirtime, {
    from: HANDLER,
    title: 'A single airtime purchase, from the purchases.buyTopUp handler to its purchase request',
    own: "the purchase's own code",
  });
}
