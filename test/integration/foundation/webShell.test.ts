import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/testApp';
import { exportsDir, uploadsDir } from '../../../src/main/files';
import { startWebShell, type WebShell } from '../../../src/main/web/webShell';
import { LINK_HEADER, SESSION_HEADER } from '../../../src/shared/webSession';

/** Real HTTP with full control of the headers (fetch will not let a test forge Host). */
function request(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

describe('web shell', () => {
  let t: TestApp;
  let shell: WebShell;
  let staticDir: string;
  let host: string;
  let session: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp();
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-static-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>vendesk</title>');
    shell = await startWebShell({ app: t.app, staticDir });
    host = `127.0.0.1:${shell.port}`;
    session = { [SESSION_HEADER]: shell.secret };
  });

  afterAll(async () => {
    await shell.close();
    await t.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  /** A POST to /api/NAME with the session header and this exact body. */
  const apiPost = (name: string, contentType: string, body: string, headers: Record<string, string> = {}) =>
    request(shell.port, {
      method: 'POST',
      path: `/api/${name}`,
      headers: { Host: host, 'Content-Type': contentType, ...session, ...headers },
      body,
    });
  const apiCall = (name: string, body: unknown, headers: Record<string, string> = {}) => apiPost(name, 'application/json', JSON.stringify(body), headers);

  it('listens on 127.0.0.1 only and its session secret has at least 128 bits', () => {
    expect(shell.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(shell.secret).toMatch(/^[0-9a-f]{64}$/);
    // The link's one-time code rides in the #fragment, which browsers never send to a server or
    // put in a Referer; it is not the session secret, and each link has its own.
    const link = shell.openUrl;
    expect(link).toMatch(new RegExp(`^${shell.origin}/#session=[0-9a-f]{64}$`));
    expect(link).not.toContain(shell.secret);
    expect(shell.openUrl).not.toBe(link);
  });

  /** POST /api/session with a link's code, as the tab opened from the link does. */
  const exchange = (code: string, headers: Record<string, string> = {}) =>
    request(shell.port, { method: 'POST', path: '/api/session', headers: { Host: host, [LINK_HEADER]: code, ...headers } });
  const codeOf = (link: string) => link.slice(link.indexOf('#session=') + '#session='.length);

  it('a link signs in once: replaying the link left in the browser history after sign-in is refused (issue 23, item 14)', async () => {
    const code = codeOf(shell.openUrl);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ ok: true, value: { session: shell.secret } });
    expect(first.headers['set-cookie']).toBeUndefined();
    // The attack: the same link again (another tab, another program reading the history).
    const replay = await exchange(code);
    expect(replay.status).toBe(401);
    expect(JSON.parse(replay.body)).toMatchObject({
      ok: false,
      error: { code: 'link_used', message: 'This link has already signed in a browser tab, or is from an earlier run of vendesk.' },
    });
    expect(replay.body).not.toContain(shell.secret);
    // Nor does the code open the API itself, in the session header or anywhere else.
    expect((await apiCall('app.info', {}, { [SESSION_HEADER]: code })).status).toBe(401);
    // A made-up code, or none, is refused the same way; a fresh link still works.
    expect((await exchange('0'.repeat(64))).status).toBe(401);
    expect((await request(shell.port, { method: 'POST', path: '/api/session', headers: { Host: host } })).status).toBe(401);
    expect((await exchange(codeOf(shell.openUrl))).status).toBe(200);
  });

  it('another web page cannot trade a link’s code: foreign Origin, cross-site fetch and a forged Host are refused and leave the code unspent', async () => {
    const code = codeOf(shell.openUrl);
    expect((await exchange(code, { Origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await exchange(code, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await exchange(code, { Host: `evil.example:${shell.port}` })).status).toBe(403);
    expect((await exchange(code)).status).toBe(200);
  });

  it('never hands the browser a cookie: browsers would send it to every other server on 127.0.0.1', async () => {
    // What a browser requests for the printed link (the fragment stays in the browser)…
    const opened = await request(shell.port, { path: '/', headers: { Host: host } });
    expect(opened.status).toBe(200);
    expect(opened.headers['set-cookie']).toBeUndefined();
    // …and for the link form of earlier versions: the app, no redirect, no cookie.
    const legacy = await request(shell.port, { path: `/?session=${shell.secret}`, headers: { Host: host } });
    expect(legacy.status).toBe(200);
    expect(legacy.headers['set-cookie']).toBeUndefined();
    const answered = await apiCall('app.info', {});
    expect(answered.headers['set-cookie']).toBeUndefined();
  });

  it('answers a call that carries the session', async () => {
    const res = await apiCall('app.info', {});
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { ok: boolean; value: { connection: { kind: string } } };
    expect(body.ok).toBe(true);
    expect(body.value.connection.kind).toBe('sandbox');
  });

  it('refuses a call without the session header with 401, wherever else the secret is put', async () => {
    const res = await apiCall('app.info', {}, { [SESSION_HEADER]: '' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'no_session' } });
    const wrong = await apiCall('app.info', {}, { [SESSION_HEADER]: '0'.repeat(64) });
    expect(wrong.status).toBe(401);
    // The secret itself, anywhere but the header (a cookie another port's page would have been sent).
    const noHeader = { Host: host, 'Content-Type': 'application/json' };
    for (const attempt of [
      { path: '/api/app.info', headers: { ...noHeader, Cookie: `vendesk_session=${shell.secret}` } },
      { path: `/api/app.info?session=${shell.secret}`, headers: noHeader },
      { path: '/api/app.info', headers: { ...noHeader, Authorization: `Bearer ${shell.secret}` } },
    ]) {
      const refused = await request(shell.port, { method: 'POST', body: '{}', ...attempt });
      expect(refused.status).toBe(401);
    }
  });

  it('uploads and downloads need the session header too', async () => {
    const uploadedBefore = fs.existsSync(uploadsDir(t.app)) ? fs.readdirSync(uploadsDir(t.app)).length : 0;
    const anonymousUpload = await request(shell.port, {
      method: 'POST',
      path: '/api/upload?name=a.csv',
      headers: { Host: host, 'Content-Type': 'application/octet-stream' },
      body: 'Phone\n08031234567\n',
    });
    expect(anonymousUpload.status).toBe(401);
    expect(fs.existsSync(uploadsDir(t.app)) ? fs.readdirSync(uploadsDir(t.app)).length : 0).toBe(uploadedBefore);

    fs.writeFileSync(path.join(exportsDir(t.app), 'Report.csv'), 'Amount\n100\n');
    const anonymousDownload = await request(shell.port, { path: '/api/files/Report.csv', headers: { Host: host, Cookie: `vendesk_session=${shell.secret}` } });
    expect(anonymousDownload.status).toBe(401);
    expect(anonymousDownload.body).not.toContain('Amount');
    const download = await request(shell.port, { path: '/api/files/Report.csv', headers: { Host: host, ...session } });
    expect(download.status).toBe(200);
    expect(download.body).toBe('Amount\n100\n');
    expect(download.headers['content-disposition']).toContain('attachment');
  });

  it('refuses a foreign Host header with 403 (DNS rebinding)', async () => {
    const res = await apiCall('app.info', {}, { Host: `evil.example:${shell.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'bad_host' } });
    const otherPort = await apiCall('app.info', {}, { Host: `127.0.0.1:${shell.port + 1}` });
    expect(otherPort.status).toBe(403);
    const localhost = await apiCall('app.info', {}, { Host: `localhost:${shell.port}` });
    expect(localhost.status).toBe(200);
  });

  it('refuses calls from another origin, even with the session', async () => {
    const res = await apiCall('app.info', {}, { Origin: 'http://evil.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'cross_origin' } });
    const crossSite = await apiCall('app.info', {}, { 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const same = await apiCall('app.info', {}, { Origin: shell.origin, 'Sec-Fetch-Site': 'same-origin' });
    expect(same.status).toBe(200);
    // Another program on this computer is another origin too: another loopback port, or the
    // shell's port on another loopback name, scheme or address.
    for (const origin of [
      `http://127.0.0.1:${shell.port + 1}`,
      `http://localhost:${shell.port + 1}`,
      'http://127.0.0.1',
      'http://localhost',
      `https://127.0.0.1:${shell.port}`,
      `http://127.0.0.2:${shell.port}`,
      `http://[::1]:${shell.port}`,
      'null',
    ]) {
      const other = await apiCall('app.info', {}, { Origin: origin });
      expect({ origin, status: other.status }).toEqual({ origin, status: 403 });
      expect(JSON.parse(other.body)).toMatchObject({ error: { code: 'cross_origin' } });
    }
  });

  it('refuses a form post (not JSON), which a foreign page could send without CORS', async () => {
    const res = await apiPost('app.info', 'application/x-www-form-urlencoded', 'a=1');
    expect(res.status).toBe(415);
  });

  it('refuses malformed input with a message naming the field', async () => {
    const res = await apiCall('profiles.save', { name: '', baseUrl: 'ftp://x' });
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body) as { ok: false; error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.message).toBe('Give the profile a name. Base URL: The service address must start with https://.');
    const notJson = await apiPost('app.info', 'application/json', '{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toContain('not valid JSON');
  });

  it('answers an unknown operation with 404', async () => {
    const res = await apiCall('no.such.thing', {});
    expect(res.status).toBe(404);
  });

  it('serves the app with a strict Content-Security-Policy and never a file outside the build folder', async () => {
    const index = await request(shell.port, { path: '/', headers: { Host: host } });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['x-frame-options']).toBe('DENY');
    for (const p of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json']) {
      const res = await request(shell.port, { path: p, headers: { Host: host } });
      expect(res.body).not.toContain('"name": "vendesk"');
    }
  });

  it('sends events to a signed-in event stream only', async () => {
    const anonymous = await fetch(`${shell.origin}/api/events`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
    const controller = new AbortController();
    const withCookie = await fetch(`${shell.origin}/api/events`, { headers: { Cookie: `vendesk_session=${shell.secret}` } });
    expect(withCookie.status).toBe(401);
    await withCookie.body?.cancel();
    const response = await fetch(`${shell.origin}/api/events`, { headers: session, signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    await reader.read(); // ": connected"
    t.app.events.emit('pending.due', { count: 3 });
    let received = '';
    while (!received.includes('\n\n')) received += new TextDecoder().decode((await reader.read()).value);
    expect(received).toContain('event: pending.due');
    expect(received).toContain('"count":3');
    controller.abort();
  });
});
