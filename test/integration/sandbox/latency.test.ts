/**
 * A far-away service: `latencyMs` / `--latency-ms` / `/__sandbox/latency` make every answer of the
 * service arrive that much later, and the control endpoints themselves stay immediate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseSandboxArgs } from '../../../src/sandbox/standalone';
import { start, type Org, type Started } from './sandboxHarness';

let s: Started | null = null;
afterEach(async () => {
  await s?.sandbox.close();
  s = null;
});

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

/**
 * A latency so long that a request held by it is surely still unanswered while the one under test
 * answers: the held request is the measure, so the check is the order of two answers, not a
 * bound on this machine's clock.
 */
const FAR_MS = 60_000;

/** A request of `org`'s started now and held by its far latency; `answered` says whether it came back yet. */
function held(org: Org): { answered: () => boolean } {
  let done = false;
  org.get('/AirtimeList').then(
    () => (done = true),
    () => (done = true), // the sandbox is closed under it at the end of the test
  );
  return { answered: () => done };
}

/** `fn`'s answer, checked to have come while `hold`'s request was still held. */
async function answersFirst<T>(hold: { answered: () => boolean }, fn: () => Promise<T>, what: string): Promise<T> {
  const value = await fn();
  expect(hold.answered(), `${what} answered only after a request held ${FAR_MS} ms`).toBe(false);
  return value;
}

describe('sandbox latency', () => {
  it('answers every request the configured round trip later, and the control endpoint changes it', async () => {
    s = await start({ latencyMs: 200 });
    const org = s.org();
    const [balance, slow] = await timed(() => org.get('/accountBalance'));
    expect(balance.status).toBe(200);
    expect(slow).toBeGreaterThanOrEqual(195);

    const read = await org.control.send<{ latencyMs: number }>('GET', 'latency');
    expect(read.body.data).toEqual({ latencyMs: 200 });

    // The control endpoints stay immediate: with a minute's latency they answer while a service
    // request sent before them is still held by it.
    await org.control.setLatency(FAR_MS);
    const hold = held(org);
    const far = await answersFirst(hold, () => org.control.send<{ latencyMs: number }>('GET', 'latency'), 'the control endpoint');
    expect(far.body.data).toEqual({ latencyMs: FAR_MS });

    const set = await answersFirst(hold, () => org.control.send<{ latencyMs: number }>('POST', 'latency', { latencyMs: 0 }), 'the control endpoint');
    expect(set.body.data).toEqual({ latencyMs: 0 });
    const fast = await answersFirst(hold, () => org.get('/AirtimeList'), 'a service request after the latency was set to 0');
    expect(fast.status).toBe(200);

    await org.control.setLatency(120);
    const [purchase, took] = await timed(() =>
      org.post('/purchaseAirtime', [{ amount: 100, phoneNumber: '08031234567', network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]),
    );
    expect(purchase.status).toBe(202);
    expect(took).toBeGreaterThanOrEqual(115);
  });

  it('refuses a latency that is not a whole number of milliseconds from 0 to 60,000', async () => {
    s = await start();
    const org = s.org();
    for (const body of [{ latencyMs: -1 }, { latencyMs: 1.5 }, { latencyMs: 60_001 }, { latency: 10 }]) {
      const r = await org.control.send('POST', 'latency', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.gatewayStatus).toBe('88');
    }
  });

  it('sends the Retry-After an injected fault asks for', async () => {
    s = await start();
    const org = s.org();
    await org.control.addFault({ path: '/logEntries', status: 429, count: 1, retryAfterSeconds: 3 });
    const refused = await org.get('/logEntries');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3');
    const next = await org.get('/logEntries');
    expect(next.status).toBe(200);
    expect(next.headers.get('retry-after')).toBeNull();
  });

  it('reads --latency-ms from the command line', () => {
    expect(parseSandboxArgs(['--token', 'a', '--latency-ms', '150']).options.latencyMs).toBe(150);
    expect(parseSandboxArgs(['--token', 'a', '--latency-ms=80']).options.latencyMs).toBe(80);
    expect(() => parseSandboxArgs(['--latency-ms', 'far'])).toThrow(/--latency-ms needs a non-negative number/);
  });
});
