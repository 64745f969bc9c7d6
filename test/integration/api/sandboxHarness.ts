/**
 * Test harness for the client's integration tests: a sandbox per test (port 0), a client with
 * fast retries, and the sandbox's control endpoints. Raw fetch here only drives `/__sandbox/*`.
 */
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../../src/sandbox';
import { VendingClient } from '../../../src/main/api/vendingClient';

export const FAST_RETRY = { attempts: 3, baseDelayMs: 10, maxDelayMs: 40 };

export interface Harness {
  sandbox: SandboxHandle;
  token: string;
  client: VendingClient;
  control(path: string, body?: unknown, method?: 'GET' | 'POST'): Promise<unknown>;
  fault(path: string, status: number, count: number, withVoucherOnly?: boolean): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  balanceKobo(): Promise<number>;
  close(): Promise<void>;
}

export async function startHarness(token = 'test-token-0123456789abcdef', options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, acceptAnyToken: true, quiet: true, ...options });
  const client = new VendingClient({ baseUrl: sandbox.url, token, timeoutMs: 5000, retry: FAST_RETRY });
  const control = async (path: string, body?: unknown, method: 'GET' | 'POST' = 'POST'): Promise<unknown> => {
    const response = await fetch(`${sandbox.url}/__sandbox/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await response.json();
    if (!response.ok) throw new Error(`control ${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    sandbox,
    token,
    client,
    control,
    fault: async (path, status, count, withVoucherOnly = false) => {
      await control('faults', { path, status, count, withVoucherOnly });
    },
    advanceClock: async (seconds) => {
      await control('clock', { advanceSeconds: seconds });
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
