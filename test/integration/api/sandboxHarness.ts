/**
 * Test harness for the client's integration tests: a sandbox per test (test/support/testSandbox.ts),
 * a client with fast retries, and the organisation's control client (sandboxControl.ts).
 */
import { VendingClient } from '../../../src/main/api/vendingClient';
import type { SandboxControl } from '../../support/sandboxControl';
import { startTestSandbox, type TestSandbox, type TestSandboxOptions } from '../../support/testSandbox';

export const FAST_RETRY = { attempts: 3, baseDelayMs: 10, maxDelayMs: 40 };

export interface Harness {
  sandbox: TestSandbox;
  token: string;
  client: VendingClient;
  /** The sandbox's control endpoints for this token's organisation. */
  control: SandboxControl;
  fault(path: string, status: number, count: number, withVoucherOnly?: boolean): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  balanceKobo(): Promise<number>;
  close(): Promise<void>;
}

export async function startHarness(token = 'test-token-0123456789abcdef', options: TestSandboxOptions = {}): Promise<Harness> {
  const sandbox = await startTestSandbox({ acceptAnyToken: true, ...options });
  const client = new VendingClient({ baseUrl: sandbox.url, token, retry: FAST_RETRY });
  const control = sandbox.control(token);
  return {
    sandbox,
    token,
    client,
    control,
    fault: async (path, status, count, withVoucherOnly = false) => {
      await control.addFault({ path, status, count, withVoucherOnly });
    },
    advanceClock: async (seconds) => {
      await control.advanceClock(seconds);
    },
    balanceKobo: async () => {
      const balance = await client.accountBalance();
      const ngn = balance.GlobalBalance.find((b) => b.Currency === 'NGN');
      if (!ngn) throw new Error('no NGN wallet');
      return Math.round(ngn.Balance * 100);
    },
    close: () => sandbox.close(),
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-error: ${String(error)}`);
  }
  throw new Error('expected the call to fail, but it succeeded');
}
