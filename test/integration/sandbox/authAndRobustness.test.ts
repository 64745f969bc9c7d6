import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start({ acceptAnyToken: false, tokens: ['known-token'] });
});
afterAll(() => s.sandbox.close());

async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(s.sandbox.url + path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: JSON.parse(text) as { gatewayStatus: string; gatewayMessage: string; requestReference: string; data: unknown } };
}

const auth = { Authorization: 'Bearer known-token' };

describe('authentication', () => {
  it('answers 401 with the envelope and a reason when the bearer token is missing', async () => {
    const r = await raw('/AirtimeList');
    expect(r.status).toBe(401);
    expect(r.json.gatewayStatus).toBe('88');
    expect(r.json.gatewayMessage).toBe('Unsucessfull');
    expect(typeof r.json.data).toBe('string');
    expect(r.json.data).toMatch(/bearer token/);
    expect(r.json.requestReference).not.toBe('');
    expect(r.headers.get('www-authenticate')).toMatch(/Bearer/);
  });

  it('answers 401 for an unknown token and for a non-bearer scheme', async () => {
    expect((await raw('/AirtimeList', { headers: { Authorization: 'Bearer nobody' } })).status).toBe(401);
    expect((await raw('/AirtimeList', { headers: { Authorization: 'Basic a25vd24tdG9rZW4=' } })).status).toBe(401);
    expect((await raw('/AirtimeList', { headers: { Authorization: 'Bearer ' } })).status).toBe(401);
  });

  it('requires the token on every endpoint, the control endpoints included', async () => {
    const paths: [string, string][] = [
      ['GET', '/accountBalance'],
      ['GET', '/DataList'],
      ['GET', '/CableTVList'],
      ['GET', '/ElectricityList'],
      ['GET', '/logEntries'],
      ['POST', '/purchaseAirtime'],
      ['POST', '/purchaseData'],
      ['POST', '/purchaseElectricity'],
      ['POST', '/purchaseCableTV'],
      ['POST', '/validateMeter'],
      ['POST', '/validateSmartcard'],
      ['GET', '/requeryTransaction/X'],
      ['POST', '/sendMessage'],
      ['POST', '/createTemplates'],
      ['GET', '/getTemplates'],
      ['POST', '/sendEvidence'],
      ['POST', '/confirmEvidence'],
      ['POST', '/craetePhonebook'],
      ['POST', '/createContact'],
      ['GET', '/getPhonebook'],
      ['GET', '/getSenderIds'],
      ['GET', '/MSQ/X'],
      ['GET', '/messageHistory'],
      ['POST', '/__sandbox/clock'],
      ['POST', '/__sandbox/faults'],
      ['POST', '/__sandbox/wallet'],
      ['GET', '/__sandbox/outbox'],
      ['POST', '/__sandbox/reset'],
      ['GET', '/__sandbox/shapes'],
      ['POST', '/__sandbox/shapes'],
    ];
    for (const [method, path] of paths) {
      const r = await raw(path, { method, body: method === 'POST' ? '{}' : undefined });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.json.gatewayStatus).toBe('88');
    }
  });

  it('accepts a known token and any unconfigured- token', async () => {
    expect((await raw('/AirtimeList', { headers: auth })).status).toBe(200);
    const r = await raw('/accountBalance', { headers: { Authorization: 'Bearer unconfigured-acme' } });
    expect(r.status).toBe(200);
  });

  it('keeps each token of acceptAnyToken as its own organisation', async () => {
    const any = await start({ acceptAnyToken: true });
    try {
      const a = any.org();
      const b = any.org();
      await a.setWallet(123);
      expect(await a.balance()).toBe(123);
      expect(await b.balance()).toBe(1_000_000);
    } finally {
      await any.sandbox.close();
    }
  });
});

describe('robustness', () => {
  it('answers an unknown path with 404 and the envelope', async () => {
    const r = await raw('/doesNotExist', { headers: auth });
    expect(r.status).toBe(404);
    expect(r.json.gatewayStatus).toBe('88');
    expect(r.json.data).toMatch(/unknown path/);
  });

  it('treats paths as case-sensitive, as spelled by the spec', async () => {
    expect((await raw('/createPhonebook', { method: 'POST', headers: auth, body: '{}' })).status).toBe(404);
    expect((await raw('/airtimelist', { headers: auth })).status).toBe(404);
  });

  it('answers a wrong method with 405, the envelope and an Allow header', async () => {
    const r = await raw('/AirtimeList', { method: 'POST', headers: auth, body: '{}' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET');
    expect(r.json.gatewayStatus).toBe('88');
    const r2 = await raw('/purchaseAirtime', { method: 'GET', headers: auth });
    expect(r2.status).toBe(405);
    expect(r2.headers.get('allow')).toBe('POST');
    expect((await raw('/logEntries', { method: 'DELETE', headers: auth })).status).toBe(405);
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const r = await raw('/purchaseAirtime', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '[{"amount": 100,' });
    expect(r.status).toBe(400);
    expect(r.json.data).toMatch(/malformed JSON/);
    expect(r.text).not.toMatch(/\s+at\s+\S+\s+\(/);
  });

  it('answers wrong types with 400 naming the field', async () => {
    const r = await raw('/purchaseAirtime', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify([{ amount: '100', phoneNumber: 8031234567, network: 'MTN', productCode: 'MTN-VTU' }]),
    });
    expect(r.status).toBe(400);
    expect(r.json.data).toMatch(/item 1: amount/);
    expect(r.json.data).toMatch(/phoneNumber/);
    for (const body of ['null', '42', '"text"', '{"a":1}', 'true']) {
      const x = await raw('/purchaseElectricity', { method: 'POST', headers: auth, body });
      expect(x.status, body).toBe(400);
      expect(x.json.gatewayStatus).toBe('88');
    }
  });

  it('answers a body over 5 MB with 413 (declared length)', async () => {
    const r = await raw('/purchaseAirtime', { method: 'POST', headers: auth, body: 'x'.repeat(5 * 1024 * 1024 + 10) });
    expect(r.status).toBe(413);
    expect(r.json.gatewayStatus).toBe('88');
    expect(r.json.data).toMatch(/too large/);
  });

  it('answers a chunked body that grows past 5 MB with 413', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const url = new URL(s.sandbox.url + '/purchaseAirtime');
      const req = request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...auth, 'Transfer-Encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: body }));
      });
      req.on('error', reject);
      const chunk = 'y'.repeat(256 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 7 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(text).toContain('"88"');
  });

  it('answers an empty purchase body with 400 "empty body"', async () => {
    const r = await raw('/purchaseAirtime', { method: 'POST', headers: auth });
    expect(r.status).toBe(400);
    expect(r.json.data).toMatch(/empty body/);
  });

  it('keeps serving other requests after abusive ones', async () => {
    const abusive = Array.from({ length: 20 }, (_, i) =>
      raw('/purchaseData', { method: 'POST', headers: auth, body: i % 2 ? '{{{' : JSON.stringify({ deeply: { nested: [1, 2, { x: null }] } }) }),
    );
    const good = Array.from({ length: 20 }, () => raw('/ElectricityList', { headers: auth }));
    const results = await Promise.all([...abusive, ...good]);
    expect(results.slice(0, 20).every((r) => r.status === 400)).toBe(true);
    expect(results.slice(20).every((r) => r.status === 200)).toBe(true);
  });

  it('survives a client that disconnects mid-body, and raw garbage on the socket', async () => {
    const url = new URL(s.sandbox.url);
    await new Promise<void>((resolve) => {
      const sock = connect(Number(url.port), url.hostname, () => {
        sock.write('POST /purchaseAirtime HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer known-token\r\nContent-Length: 1000\r\n\r\n[{"amount":');
        setTimeout(() => {
          sock.destroy();
          resolve();
        }, 50);
      });
    });
    const garbage = await new Promise<string>((resolve) => {
      let out = '';
      const sock = connect(Number(url.port), url.hostname, () => sock.write('\x00\x01 NOT HTTP AT ALL\r\n\r\n'));
      sock.on('data', (c: Buffer) => (out += c.toString()));
      sock.on('close', () => resolve(out));
      sock.on('error', () => resolve(out));
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect((await raw('/AirtimeList', { headers: auth })).status).toBe(200);
  });

  it('refuses pathological bodies: deep nesting, oversized batches, oversized headers', async () => {
    // How quickly is a figure of `npm run bench -- hostileBodies` (beside a plain body of the same
    // size), never a timed test: a busy machine would make a duration bound fail for no fault.
    const plain = await raw('/purchaseAirtime', { method: 'POST', headers: auth, body: JSON.stringify('a'.repeat(2_000_000)) });
    expect(plain.status).toBe(400);
    const deep = await raw('/purchaseAirtime', { method: 'POST', headers: auth, body: '['.repeat(1_000_000) + ']'.repeat(1_000_000) });
    expect(deep.status).toBe(400);
    expect(deep.json.data).toMatch(/nested deeper/);
    const items = Array.from({ length: 1001 }, () => ({ amount: 100, phoneNumber: '08031234567', network: 'MTN', productCode: 'MTN-VTU' }));
    const big = await raw('/purchaseAirtime', { method: 'POST', headers: auth, body: JSON.stringify(items) });
    expect(big.status).toBe(400);
    expect(big.json.data).toMatch(/at most 1000 items/);
    const longUrl = await fetch(`${s.sandbox.url}/logEntries?search=${'a'.repeat(20_000)}`, { headers: auth });
    expect(longUrl.status).toBe(431);
    expect(((await longUrl.json()) as { gatewayStatus: string }).gatewayStatus).toBe('88');
    // strings containing brackets do not count as nesting
    const bracketText = await raw('/purchaseAirtime', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify([{ amount: 100, phoneNumber: '08031234567', network: 'MTN', productCode: 'MTN-VTU', region: '[['.repeat(100) + '\\"' }]),
    });
    expect(bracketText.status).toBe(202);
  });

  it('answers every response as JSON with the envelope', async () => {
    const r = await raw('/ElectricityList', { headers: auth });
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(Object.keys(r.json).sort()).toEqual(['data', 'gatewayMessage', 'gatewayStatus', 'requestReference']);
  });
});
