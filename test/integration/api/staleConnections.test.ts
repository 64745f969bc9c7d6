/**
 * A kept-alive connection that the server closes just as vendesk reuses it. A hop in front of the
 * sandbox advertises a minute of keep-alive, then resets one request that arrives on a connection
 * it has already answered on, before passing it on — what a client meets when a server closes
 * idle sockets sooner than it said (or a busy client is late to notice). A read survives it
 * (retried on a new connection); a purchase is never sent twice (the reset makes it uncertain, to
 * be settled from the log).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UncertainOutcomeError } from '../../../src/main/api/serviceErrors';
import { VendingClient } from '../../../src/main/api/vendingClient';
import { ADVERTISED_IDLE_SECONDS, SERVER_IDLE_MS } from '../../../src/sandbox/idleSockets';
import { allLogEntries } from '../../support/serviceLogEntries';
import { FAST_RETRY, rejectionOf, startHarness, type Harness } from './sandboxHarness';

interface ClosingHop {
  url: string;
  /** Which request is reset (once): the first on a reused connection, or the first purchase. */
  reset: 'reused' | 'post';
  /** Requests that reached the hop, by method. */
  received: { GET: number; POST: number };
  /** Requests passed on to the sandbox, by method. */
  forwarded: { GET: number; POST: number };
  resets: number;
  close(): Promise<void>;
}

async function startClosingHop(target: string): Promise<ClosingHop> {
  const served = new WeakMap<Socket, number>();
  const hop: ClosingHop = { url: '', reset: 'reused', received: { GET: 0, POST: 0 }, forwarded: { GET: 0, POST: 0 }, resets: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const method = req.method === 'POST' ? 'POST' : 'GET';
    hop.received[method]++;
    const before = served.get(req.socket) ?? 0;
    served.set(req.socket, before + 1);
    if (hop.resets === 0 && (hop.reset === 'reused' ? before > 0 : method === 'POST')) {
      // The idle socket "was closed by the server": the request is never passed on.
      hop.resets++;
      req.socket.resetAndDestroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hop.forwarded[method]++;
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host }, agent: false }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const headers = { ...answer.headers, connection: 'keep-alive', 'keep-alive': 'timeout=60' };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hop.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hop.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return hop;
}

const airtime = { amount: 100, phoneNumber: '08031234567', network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' };

describe('a reused connection that the server has closed', () => {
  let h: Harness;
  let hop: ClosingHop;
  let client: VendingClient;
  beforeEach(async () => {
    h = await startHarness(`stale-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    hop = await startClosingHop(h.sandbox.url);
    client = new VendingClient({ baseUrl: hop.url, token: h.token, retry: FAST_RETRY });
  });
  afterEach(async () => {
    await hop.close();
    await h.close();
  });

  it('a read is retried on a new connection and gets the service’s answer', async () => {
    const wallet = await h.balanceKobo();
    // Reads until one meets the reset (the client reuses an idle connection within a few reads).
    let reads = 0;
    while (hop.resets === 0 && reads < 8) {
      const balance = await client.accountBalance();
      reads++;
      // Every answer, the one that met the reset included, is the sandbox's own wallet.
      expect(Math.round((balance.GlobalBalance.find((b) => b.Currency === 'NGN')?.Balance ?? -1) * 100)).toBe(wallet);
    }
    expect(hop.resets).toBe(1);
    expect(hop.received.GET).toBe(reads + 1);
    expect(hop.forwarded.GET).toBe(reads);
  });

  it('a purchase on such a connection is not sent twice: it is uncertain, and the service never saw it', async () => {
    hop.reset = 'post';
    const before = await h.balanceKobo();
    await client.accountBalance(); // leaves an idle kept-alive connection for the purchase
    const error = await rejectionOf(client.purchaseAirtime([airtime]));
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(hop.received.POST).toBe(1);
    expect(hop.forwarded.POST).toBe(0);
    expect((await allLogEntries(h.sandbox.url, h.token)).filter((e) => e.phone_number === airtime.phoneNumber)).toHaveLength(0);
    expect(await h.balanceKobo()).toBe(before);
  });
});

describe('the sandbox outlasts its clients’ idle connections', () => {
  it('advertises a keep-alive far shorter than it keeps an idle socket', async () => {
    const h = await startHarness(`idle-${Date.now()}`);
    try {
      const res = await fetch(`${h.sandbox.url}/accountBalance`, { headers: { Authorization: `Bearer ${h.token}` } });
      await res.text();
      expect(res.headers.get('keep-alive')).toBe(`timeout=${ADVERTISED_IDLE_SECONDS}`);
      // Node's fetch keeps an idle socket for the advertised time less a margin: the server's minute
      // leaves the client well ahead, however busy the machine.
      expect(SERVER_IDLE_MS).toBeGreaterThanOrEqual(ADVERTISED_IDLE_SECONDS * 1000 * 10);
    } finally {
      await h.close();
    }
  });
});
