/**
 * Issue 37 (a planted bug no test caught): `VENDESK_TOKEN` went to the same host and port under
 * another path. The token is bound to the whole address it is given with — scheme, host, port and
 * path. The attack: the service sits at `/v1` of a gateway whose other paths are other
 * applications, and its `NextPage` links name the gateway's root (`/logEntries?page=2`, as a
 * service behind a path-mapping proxy gives them), or another host. A sync must read every page
 * under `/v1` and send the token nowhere else.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import { VendingClient } from '../../../src/main/api/vendingClient';
import { EnvFirstTokenStore, FileTokenStore } from '../../../src/main/store/tokenStore';
import { allLogEntries } from '../../support/serviceLogEntries';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';

const TOKEN = 'path-bound-token-5e2c91d7';

interface Heard {
  path: string;
  authorization: string;
}

/** Everything a server at 127.0.0.1 heard, with the Authorization header of each request. */
interface Listener {
  url: string;
  heard: Heard[];
  close(): Promise<void>;
}

async function listen(handle: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void): Promise<Listener> {
  const heard: Heard[] = [];
  const server = http.createServer((req, res) => {
    heard.push({ path: req.url ?? '/', authorization: req.headers.authorization ?? '' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heard,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A gateway: `/v1/…` is the service — the sandbox, its log's links turned into cursors that name
 * no page number (`?cursor=p2`, as some services page), so vendesk follows them — and every other
 * path is another application, which answers 404 and keeps what it was sent. The Host header is
 * passed on, so the service's links name the gateway's root, not `/v1`.
 */
function gatewayTo(sandbox: TestSandbox): Promise<Listener> {
  return listen((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (!url.pathname.startsWith('/v1/')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('another application');
      return;
    }
    const cursor = url.searchParams.get('cursor');
    if (cursor) {
      url.searchParams.delete('cursor');
      url.searchParams.set('page', cursor.slice(1));
    }
    const target = new URL(sandbox.url);
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    // The path as it came (a `//…` path stays a path of the sandbox: it is never parsed as a link).
    const forward = http.request({ host: target.hostname, port: target.port, path: `${url.pathname.slice('/v1'.length)}${url.search}`, method: req.method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const text = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/([?&])page=(\d+)/g, '$1cursor=p$2');
        const { 'content-length': _length, ...rest } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, rest).end(text);
      });
    });
    forward.end(body);
  });
}

describe('VENDESK_TOKEN is bound to the path of its address too', () => {
  let sandbox: TestSandbox;
  let gateway: Listener;
  let dataDir: string;
  beforeAll(async () => {
    // 250 entries: three pages of the sync's 100, so it follows NextPage twice.
    sandbox = await startTestSandbox({ tokens: [TOKEN], seedHistory: 250 });
    gateway = await gatewayTo(sandbox);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-tokenpath-'));
  });
  afterAll(async () => {
    await gateway.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a sync following NextPage links that leave /v1 reads every page under /v1 and sends the token to no other path', async () => {
    // The links the service gives name the gateway's root, outside /v1, and no page number.
    const first = await fetch(`${gateway.url}/v1/logEntries?perPage=100`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const next = ((await first.json()) as { data: { NextPage: string } }).data.NextPage;
    expect(next).toMatch(new RegExp(`^${gateway.url}/logEntries\\?`));
    expect(new URL(next).searchParams.get('cursor')).toBe('p2');
    gateway.heard.length = 0;

    let stdout = '';
    let stderr = '';
    const code = await runCli(['sync', '--json', '--data-dir', dataDir], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      env: { VENDESK_BASE_URL: `${gateway.url}/v1`, VENDESK_TOKEN: TOKEN },
    });
    // Nothing outside /v1 heard the token (nor was asked anything).
    expect(gateway.heard.filter((h) => !h.path.startsWith('/v1/'))).toEqual([]);
    expect(gateway.heard.every((h) => h.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(code, stderr).toBe(0);
    // Every entry of the service's own log was read, over three pages.
    const service = await allLogEntries(sandbox.url, TOKEN);
    expect(service.length).toBe(250);
    expect(JSON.parse(stdout)).toMatchObject({ fetched: 250, inserted: 250, pages: 3 });
    expect(gateway.heard.filter((h) => h.path.startsWith('/v1/logEntries')).length).toBe(3);
  });

  it('a link to another path of the same host, or naming another host, is requested under the address the token was given for', async () => {
    const catcher = await listen((_req, res) => res.writeHead(404).end());
    try {
      gateway.heard.length = 0;
      const client = new VendingClient({ baseUrl: `${gateway.url}/v1`, token: TOKEN, retry: { attempts: 1 } });
      const host = new URL(catcher.url).host;
      // The same host and port, another path; another host; another host whose path names the catcher.
      for (const link of [`${gateway.url}/other/logEntries?page=2`, `${catcher.url}/logEntries?page=2`, `https://elsewhere.example//${host}/logEntries?page=2`]) {
        await client.logPage(link).catch(() => undefined);
      }
      expect(catcher.heard).toEqual([]);
      expect(gateway.heard.filter((h) => !h.path.startsWith('/v1/'))).toEqual([]);
      expect(gateway.heard.map((h) => h.path)).toEqual(['/v1/other/logEntries?page=2', '/v1/logEntries?page=2', `/v1//${host}/logEntries?page=2`]);
    } finally {
      await catcher.close();
    }
  });

  it('a live profile at another path of the same host and port gets no token from the environment', () => {
    const env = new EnvFirstTokenStore(new FileTokenStore(path.join(dataDir, 'no-tokens')), TOKEN, 'http://127.0.0.1:4010/v1');
    for (const same of ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1/', 'HTTP://127.0.0.1:4010/v1//']) expect(env.get('acme', same), same).toBe(TOKEN);
    for (const other of [
      'http://127.0.0.1:4010',
      'http://127.0.0.1:4010/other',
      'http://127.0.0.1:4010/v1/../other',
      'http://127.0.0.1:4010/v10',
      'http://127.0.0.1:4010/v1/sub',
      'http://127.0.0.1:4010/V1',
    ]) {
      expect(env.get('acme', other), other).toBeNull();
      expect(env.withheldFrom(other)).toBe(`VENDESK_TOKEN is given for http://127.0.0.1:4010/v1 only, so it was not sent to ${other}`);
    }
  });

  it('a redirect from /v1 to another path of the same host is not followed with the token', async () => {
    const service = await listen((_req, res) => res.writeHead(302, { Location: '/other/accountBalance' }).end());
    try {
      const client = new VendingClient({ baseUrl: `${service.url}/v1`, token: TOKEN, retry: { attempts: 1 } });
      await expect(client.accountBalance()).rejects.toThrow();
      expect(service.heard).toEqual([{ path: '/v1/accountBalance', authorization: `Bearer ${TOKEN}` }]);
    } finally {
      await service.close();
    }
  });
});
