/**
 * What the client does when the answer does not come: timeouts, refused connections, server
 * errors, cancels, unreadable bodies — over real HTTP (the sandbox, or a local server on
 * 127.0.0.1 that this test starts and stops).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestCancelledError, ServiceError, UncertainOutcomeError } from '../../../src/main/api/serviceErrors';
import { VendingClient } from '../../../src/main/api/vendingClient';
import type { AirtimeItem, ElectricityPurchase } from '../../../src/shared/wire';
import { FAST_RETRY, rejectionOf, startHarness, type Harness } from './sandboxHarness';

const TOKEN = 'sk_live_transport_0a1b2c3d4e5f';

interface LocalServer {
  url: string;
  requests: { method: string; url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** A local server answering with `reply`; `null` means never answer (hold the request open). */
async function localServer(reply: (req: http.IncomingMessage) => { status: number; body: string; headers?: Record<string, string> } | null): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    const answer = reply(req);
    if (!answer) return;
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let servers: LocalServer[] = [];
let h: Harness | null = null;
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await h?.close();
  h = null;
});

async function serve(reply: Parameters<typeof localServer>[0]): Promise<LocalServer> {
  const server = await localServer(reply);
  servers.push(server);
  return server;
}

const airtime: AirtimeItem = { amount: 100, phoneNumber: '08031234567', network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' };
const power: ElectricityPurchase = { amount: 2000, meter: '12345678901', phone: '08031234567', disco: 'IKEDC', vendType: 'PREPAID' };

function expectNoToken(error: Error): void {
  const text = JSON.stringify({ message: error.message, shape: (error as ServiceError).toShape?.(), stack: error.stack });
  expect(text).not.toContain(TOKEN);
}

/**
 * The client's timeouts, started by the client and fired by the test — each once the server has
 * the request it times, never by the clock: a busy machine can take longer than any timeout to
 * get a request to the server, and a purchase whose timeout fired before it was sent proves
 * nothing about one that was.
 */
function timeoutsFiredByTheTest() {
  const started: { ms: number; controller: AbortController }[] = [];
  return {
    /** The client's `startTimeout`. */
    start: (ms: number): AbortSignal => {
      const controller = new AbortController();
      started.push({ ms, controller });
      return controller.signal;
    },
    /** Fires the timeout of the attempt in flight (the last one started), as its time would. */
    fire(): void {
      const last = started.at(-1);
      last?.controller.abort(new DOMException(`no answer within ${last.ms} ms`, 'TimeoutError'));
    },
    get started(): number {
      return started.length;
    },
  };
}

/** A server that holds every request open and, once it has one, fires the client's timeout for it. */
async function timingOut(): Promise<{ server: LocalServer; timeouts: ReturnType<typeof timeoutsFiredByTheTest> }> {
  const timeouts = timeoutsFiredByTheTest();
  const server = await serve(() => {
    timeouts.fire();
    return null;
  });
  return { server, timeouts };
}

describe('timeouts', () => {
  it('a purchase that times out is UNCERTAIN and is sent exactly once', async () => {
    const { server, timeouts } = await timingOut();
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 150, startTimeout: timeouts.start, retry: FAST_RETRY });
    const error = await rejectionOf(client.purchaseElectricity(power));
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error).toMatchObject({ code: 'uncertain_outcome', uncertainCause: 'timeout', endpoint: 'purchaseElectricity' });
    expect(error.message).toMatch(/may have gone through and been charged/);
    expect((error as UncertainOutcomeError).hint).toMatch(/Do not send it again/);
    expect(server.requests).toHaveLength(1);
    expect(timeouts.started).toBe(1);
    expectNoToken(error);
  });

  it('an airtime batch that times out is UNCERTAIN too, never resent', async () => {
    const { server, timeouts } = await timingOut();
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 150, startTimeout: timeouts.start, retry: FAST_RETRY });
    expect(await rejectionOf(client.purchaseAirtime([{ ...airtime, voucherCode: 'V1' }]))).toMatchObject({ uncertainCause: 'timeout' });
    expect(server.requests).toHaveLength(1);
  });

  it('a paid message that times out is UNCERTAIN, never resent', async () => {
    const { server, timeouts } = await timingOut();
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 150, startTimeout: timeouts.start, retry: FAST_RETRY });
    const error = await rejectionOf(client.sendMessage({ senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'x' }));
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error).toMatchObject({ uncertainCause: 'timeout' });
    expect(server.requests).toHaveLength(1);
  });

  it('a read that times out is retried, then asks to retry later', async () => {
    const { server, timeouts } = await timingOut();
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 100, startTimeout: timeouts.start, retry: FAST_RETRY });
    const error = await rejectionOf(client.accountBalance());
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ action: 'retry_later', httpStatus: null });
    expect(error.message).toMatch(/did not answer in time/);
    expect(server.requests).toHaveLength(FAST_RETRY.attempts);
    expect(timeouts.started).toBe(FAST_RETRY.attempts);
  });

  it("the client's own timer fires too: the purchase is UNCERTAIN whether or not its request had reached the server", async () => {
    // AbortSignal.timeout, as the app runs: on a busy machine it may fire before the request is
    // out, and the purchase is uncertain all the same (only a refused connection is "not sent").
    const server = await serve(() => null);
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 30, retry: FAST_RETRY });
    expect(await rejectionOf(client.purchaseAirtime([airtime]))).toMatchObject({ uncertainCause: 'timeout' });
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it('the default timeout is 30 s', async () => {
    const server = await serve(() => ({ status: 200, body: '{}' }));
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN });
    expect(client.timeoutMs).toBe(30_000);
  });
});

describe('server errors and unreadable answers', () => {
  it('a 500 on a purchase is UNCERTAIN and not retried (sandbox fault)', async () => {
    h = await startHarness(TOKEN);
    await h.fault('/purchaseElectricity', 500, 5);
    const error = await rejectionOf(h.client.purchaseElectricity({ ...power, disco: (await h.client.electricityCatalog())[0].productCode }));
    expect(error).toBeInstanceOf(UncertainOutcomeError);
    expect(error).toMatchObject({ uncertainCause: 'server_error', httpStatus: 500 });
    const faults = await h.control.faults();
    expect(faults[0].remaining).toBe(4); // one request, no retry
  });

  it('a 502 on a purchase is UNCERTAIN (only 503 means nothing was posted)', async () => {
    const server = await serve(() => ({ status: 502, body: 'Bad Gateway' }));
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, retry: FAST_RETRY });
    expect(await rejectionOf(client.purchaseAirtime([airtime]))).toMatchObject({ uncertainCause: 'server_error', httpStatus: 502 });
    expect(server.requests).toHaveLength(1);
  });

  it('an unreadable 2xx to a purchase is UNCERTAIN; to a read it is a ServiceError', async () => {
    const server = await serve(() => ({ status: 200, body: '<html>captive portal</html>' }));
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, retry: FAST_RETRY });
    expect(await rejectionOf(client.purchaseCableTV({ amount: 1, smartcard: '1', phone: '08031234567', provider: 'DSTV', bouquetCode: 'x' }))).toMatchObject({
      uncertainCause: 'malformed_answer',
    });
    const read = await rejectionOf(client.airtimeCatalog());
    expect(read).toBeInstanceOf(ServiceError);
    expect(read.message).toMatch(/could not read/);
  });

  it('honours Retry-After on a 503, capped by maxDelayMs', async () => {
    let calls = 0;
    const server = await serve(() => {
      calls++;
      return calls === 1
        ? { status: 503, body: JSON.stringify({ gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: 'R', data: 'down' }), headers: { 'Retry-After': '0.2' } }
        : {
            status: 200,
            body: JSON.stringify({ gatewayStatus: '00', gatewayMessage: 'Successfully Processed', requestReference: 'R', data: { AccountName: 'A', GlobalBalance: [] } }),
          };
    });
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1000 } });
    const started = Date.now();
    await client.accountBalance();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('connections and cancels', () => {
  it('a refused connection sends nothing: a purchase says so and may be tried again', async () => {
    const server = await serve(() => null);
    const url = server.url;
    await server.close();
    servers = [];
    const client = new VendingClient({ baseUrl: url, token: TOKEN, retry: FAST_RETRY });
    const error = await rejectionOf(client.purchaseAirtime([airtime]));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ action: 'retry_later', httpStatus: null });
    expect((error as ServiceError).hint).toMatch(/nothing was charged/);
    expectNoToken(error);
  });

  it('cancelling before sending sends nothing; cancelling a purchase in flight is UNCERTAIN', async () => {
    // The cancel of a call in flight comes once the server has its request (not after a time the request may not have left in).
    let cancelInFlight = (): void => undefined;
    const server = await serve(() => {
      cancelInFlight();
      return null;
    });
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, retry: FAST_RETRY });
    const before = new AbortController();
    before.abort();
    expect(await rejectionOf(client.purchaseAirtime([airtime], { signal: before.signal }))).toBeInstanceOf(RequestCancelledError);
    expect(server.requests).toHaveLength(0);

    const during = new AbortController();
    cancelInFlight = () => during.abort();
    expect(await rejectionOf(client.purchaseAirtime([airtime], { signal: during.signal }))).toMatchObject({ uncertainCause: 'cancelled' });
    expect(server.requests).toHaveLength(1);

    const read = new AbortController();
    cancelInFlight = () => read.abort();
    expect(await rejectionOf(client.airtimeCatalog({ signal: read.signal }))).toBeInstanceOf(RequestCancelledError);
    expect(server.requests).toHaveLength(2);
  });
});

describe('the token', () => {
  it('is sent as a bearer token, and NextPage on another host is fetched from the configured origin', async () => {
    const page = { TotalPages: 1, CurrentPage: 1, TotalRecords: 0, NextPage: '', PreviousPage: '', Items: [] };
    const server = await serve(() => ({ status: 200, body: JSON.stringify({ gatewayStatus: '00', gatewayMessage: 'Sucessfully Processed', requestReference: 'R', data: page }) }));
    const client = new VendingClient({ baseUrl: server.url + '/', token: TOKEN });
    await client.logPage('http://evil.example.com/logEntries?page=2&perPage=10');
    expect(server.requests[0]).toMatchObject({ url: '/logEntries?page=2&perPage=10', authorization: `Bearer ${TOKEN}` });
  });

  it('appears in no error message of any error class from the sandbox', async () => {
    h = await startHarness(TOKEN);
    const { client, fault } = h;
    const errors: Error[] = [];
    const collect = async (p: Promise<unknown>) => errors.push(await rejectionOf(p));
    const product = (await client.airtimeCatalog())[0];
    const item: AirtimeItem = {
      amount: 100,
      phoneNumber: '08031234567',
      network: product.network,
      productCode: product.productCode,
      operator: product.operator,
      region: product.region,
    };
    await collect(client.purchaseAirtime([{ ...item, productCode: 'nope' }])); // 400
    await collect(client.requery('missing')); // 404
    await fault('/purchaseAirtime', 503, 10);
    await collect(client.purchaseAirtime([item])); // 503
    await fault('/accountBalance', 401, 1);
    await collect(client.accountBalance()); // 401
    const unconfigured = new VendingClient({ baseUrl: h.sandbox.url, token: `unconfigured-${TOKEN}`, retry: FAST_RETRY });
    await collect(unconfigured.purchaseAirtime([item])); // 422
    expect(errors).toHaveLength(5);
    for (const error of errors) {
      expectNoToken(error);
      expect(error.message).not.toContain(`unconfigured-${TOKEN}`);
    }
  });
});

describe('quirky answers', () => {
  it('an 88 on HTTP 200 to a read is a fix_input ServiceError carrying the real status and reason', async () => {
    const server = await serve(() => ({
      status: 200,
      body: JSON.stringify({ gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: 'R9', data: 'meter not found for the disco' }),
    }));
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, retry: FAST_RETRY });
    const error = await rejectionOf(client.validateMeter({ meter: '1', disco: 'IKEDC', vendType: 'PREPAID' }));
    expect(error).toMatchObject({ action: 'fix_input', httpStatus: 200, reason: 'meter not found for the disco', reference: 'R9' });
  });

  it('an 88 on HTTP 202 to a purchase is a failed result, not an exception', async () => {
    const server = await serve(() => ({
      status: 202,
      body: JSON.stringify({ gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: 'R8', data: 'amount out of range for the network' }),
    }));
    const client = new VendingClient({ baseUrl: server.url, token: TOKEN, retry: FAST_RETRY });
    expect(await client.purchaseAirtime([airtime])).toEqual({ kind: 'failed', reason: 'amount out of range for the network', reference: 'R8', httpStatus: 202 });
  });
});
