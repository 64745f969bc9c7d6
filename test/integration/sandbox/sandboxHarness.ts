/** Shared helpers for the sandbox's integration tests: real HTTP against a real sandbox. */
import { randomUUID } from 'node:crypto';
import type { Envelope } from '../../../src/shared/wire';
import { SandboxControl, type FaultRequest } from '../../support/sandboxControl';
import { startTestSandbox, type TestSandbox, type TestSandboxOptions } from '../../support/testSandbox';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

export class Org {
  /** This organisation's control endpoints (`/__sandbox/*`). */
  readonly control: SandboxControl;

  constructor(
    readonly url: string,
    readonly token: string,
  ) {
    this.control = new SandboxControl(url, token);
  }

  async call<T = unknown>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, ...extraHeaders };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(this.url + path, { method, headers, body: payload });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text) as Envelope<T> };
  }

  get<T = unknown>(path: string) {
    return this.call<T>('GET', path);
  }

  post<T = unknown>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body);
  }

  async balance(): Promise<number> {
    const r = await this.get<{ GlobalBalance: { Balance: number }[] }>('/accountBalance');
    return r.body.data.GlobalBalance[0]?.Balance ?? NaN;
  }

  async advance(seconds: number): Promise<void> {
    await this.control.advanceClock(seconds);
  }

  async setWallet(naira: number): Promise<void> {
    await this.control.setWallet(naira);
  }

  async fault(fault: FaultRequest): Promise<void> {
    await this.control.addFault(fault);
  }
}

export interface Started {
  sandbox: TestSandbox;
  /** A fresh organisation (its own wallet, clock, faults and data). */
  org(prefix?: string): Org;
}

export async function start(options: TestSandboxOptions = {}): Promise<Started> {
  const sandbox = await startTestSandbox({ acceptAnyToken: true, ...options });
  return {
    sandbox,
    org: (prefix = 'test') => new Org(sandbox.url, `${prefix}-${randomUUID()}`),
  };
}

export const mtnAirtime = (phoneNumber: string, amount: number, extra: Record<string, unknown> = {}) => ({
  amount,
  phoneNumber,
  network: 'MTN',
  productCode: 'MTN-VTU',
  operator: 'MTN Nigeria',
  region: '',
  ...extra,
});

export const mtnData = (phoneNumber: string, extra: Record<string, unknown> = {}) => ({
  phoneNumber,
  productCode: 'MTN-2GB-30D',
  network: 'MTN',
  amount: 1500,
  dataValue: 2048,
  ...extra,
});

/**
 * How many connections a test that sends hundreds of requests at once keeps open to the sandbox:
 * well under the 511 a listening socket queues before accepting (Node's backlog). With a thousand
 * connects at once on a busy machine, the server accepted them too slowly, the queue overflowed
 * and the kernel reset some connections (`fetch failed`, ECONNRESET) — a reset the test cannot
 * tell from a purchase the server received.
 */
export const MAX_CONNECTIONS = 100;

/**
 * Makes every call of `calls` at once, over at most `connections` connections at a time: each
 * of `connections` runners makes its next call as soon as its last one is answered (its kept-alive
 * socket is used again), so the server always has that many requests in hand. Each call is made
 * exactly once; the answers come back in the order of `calls`.
 */
export async function overConnections<T>(calls: readonly (() => Promise<T>)[], connections = MAX_CONNECTIONS): Promise<T[]> {
  const answers = new Array<T>(calls.length);
  let next = 0;
  const runner = async () => {
    while (next < calls.length) {
      const i = next++;
      answers[i] = await calls[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, calls.length) }, runner));
  return answers;
}

/** Commission rates the sandbox documents (basis points). */
export const AIRTIME_BP = { MTN: 300, AIRTEL: 350, GLOBACOM: 400, '9MOBILE': 400 } as const;
export const DATA_BP = { MTN: 200, AIRTEL: 250, GLOBACOM: 300, '9MOBILE': 300 } as const;

/** amount − commission, in Naira, computed in kobo. */
export function costNaira(amountNaira: number, basisPoints: number): number {
  const kobo = Math.round(amountNaira * 100);
  return (kobo - Math.floor((kobo * basisPoints) / 10_000)) / 100;
}

/** Naira sums without float drift. */
export function naira(...values: number[]): number {
  return values.reduce((sum, v) => sum + Math.round(v * 100), 0) / 100;
}
