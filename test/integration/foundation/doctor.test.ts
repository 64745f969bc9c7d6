/**
 * `vendesk doctor` and the Settings check (`connection.doctor`): every read endpoint of the
 * connection, whether vendesk can read each answer; nothing bought or sent (checked against the
 * service's own log, wallet and outbox). Against an address that is not the service it says so in
 * one sentence. The answers it keeps never hold the token or a phone number.
 */
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';
import type { DoctorReport } from '../../../src/shared/contract/serviceCheck';
import { sandboxLog, sandboxWalletKobo } from '../../support/sandboxRecords';
import { ANSWER_FORMS, startTestApp, type TestApp } from '../../support/testApp';

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-doctor-'));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function doctor(baseUrl: string, token: string, json = false): Promise<{ code: number; stdout: string; report: DoctorReport | null }> {
  let stdout = '';
  const code = await runCli(['doctor', '--data-dir', dataDir, ...(json ? ['--json'] : [])], {
    stdout: (t) => (stdout += `${t}\n`),
    stderr: () => undefined,
    env: { VENDESK_BASE_URL: baseUrl, VENDESK_TOKEN: token },
  });
  return { code, stdout, report: json ? (JSON.parse(stdout) as DoctorReport) : null };
}

/** A local HTTP server answering every request with `answer`. */
async function serve(answer: (req: { url: string; auth: string }) => { status: number; type: string; body: string }): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const a = answer({ url: req.url ?? '/', auth: req.headers.authorization ?? '' });
    res.writeHead(a.status, { 'Content-Type': a.type }).end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each(ANSWER_FORMS)('doctor against the sandbox, messaging answers in the $name form', (form) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(form.options);
    const input = { target: { kind: 'number' as const, to: '08031234567' }, content: { kind: 'text' as const, text: 'Doctor, doctor' }, emails: [] };
    const quote = await t.call('messaging.quote', input);
    await t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });
  });
  afterAll(() => t.close());

  it('reports every endpoint readable, buys and sends nothing', async () => {
    const logBefore = (await sandboxLog(t)).length;
    const walletBefore = await sandboxWalletKobo(t);
    const outboxBefore = (await t.sandboxControl.outbox()).length;
    const report = await t.call('connection.doctor', {});
    expect(report.checks.map((c) => c.path.replace(/^\/MSQ\/.*/, '/MSQ/…'))).toEqual([
      '/accountBalance',
      '/AirtimeList',
      '/DataList',
      '/CableTVList',
      '/ElectricityList',
      '/logEntries',
      '/getSenderIds',
      '/getTemplates',
      '/getPhonebook',
      '/messageHistory',
      '/MSQ/…',
    ]);
    for (const c of report.checks) expect(['read', 'read_with_gaps'], `${c.path}: ${c.summary} ${c.problems.join(' ')}`).toContain(c.state);
    expect(report).toMatchObject({ readable: 11, checked: 11, verdict: form.sparse ? 'gaps' : 'ok' });
    expect(report.checks.find((c) => c.endpoint === 'getSenderIds')?.summary).toBe('2 sender IDs, 1 approved');
    expect(report.checks.find((c) => c.endpoint === 'messageStatus')?.summary).toMatch(/status of the newest message: (SENT|DELIVERED)/);
    if (form.sparse) expect(report.checks.find((c) => c.endpoint === 'messageHistory')?.problems).toContain('The messages do not say what they cost.');
    // Nothing bought, nothing sent: the service's own records are unchanged.
    expect((await sandboxLog(t)).length).toBe(logBefore);
    expect(await sandboxWalletKobo(t)).toBe(walletBefore);
    expect((await t.sandboxControl.outbox()).length).toBe(outboxBefore);
    // The answers it read are kept with the connection's others (Settings → Service answers).
    const kept = await t.call('connection.answers', {});
    expect(kept.answers.filter((a) => a.endpoint === 'getTemplates').length).toBeGreaterThan(0);
  });

  it('vendesk doctor prints the verdict and a line per endpoint, and exits 0', async () => {
    const r = await doctor(t.app.connection.baseUrl, t.token);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(
      form.sparse
        ? /^vendesk read all 11 endpoints of http:\/\/127\.0\.0\.1:\d+; \d+ answers? left facts out, as listed below\.$/
        : /^vendesk read every answer of http:\/\/127\.0\.0\.1:\d+: all 11 endpoints checked, nothing bought or sent\.$/,
    );
    expect(r.stdout).toMatch(/The sender ID list\s+\/getSenderIds\s+200\s+read/);
  });
});

describe('doctor against what is not the service', () => {
  it('says in one sentence that a web server is not the vending service', async () => {
    const { url, server } = await serve(() => ({ status: 404, type: 'text/html', body: '<html><h1>Not Found</h1></html>' }));
    try {
      const r = await doctor(url, 'doctor-token-5678');
      expect(r.code).toBe(1);
      const sentence = r.stdout.split('\n')[1];
      expect(sentence).toBe(
        `${url} answers, but it is not the vending service: none of its 10 endpoints answered in the service's envelope (/accountBalance answered HTTP 404 with text/html).`,
      );
    } finally {
      server.close();
    }
  });

  it('says so for a JSON API that is some other service, too', async () => {
    const { url, server } = await serve(() => ({ status: 200, type: 'application/json', body: '{"status":"ok","version":"1.2"}' }));
    try {
      const { code, report } = await doctor(url, 'doctor-token-5678', true);
      expect(code).toBe(1);
      expect(report?.verdict).toBe('not_the_service');
      expect(report?.summary).toMatch(/answers, but it is not the vending service/);
    } finally {
      server.close();
    }
  });

  it('says nothing answers at a closed port', async () => {
    const { url, server } = await serve(() => ({ status: 200, type: 'text/plain', body: '' }));
    await new Promise<void>((r) => server.close(() => r()));
    const r = await doctor(url, 'doctor-token-5678');
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[1]).toBe(`Nothing answers at ${url} (ECONNREFUSED): check the address and the network.`);
  });

  it('says the token was refused when every endpoint answers 401', async () => {
    const { url, server } = await serve(() => ({
      status: 401,
      type: 'application/json',
      body: JSON.stringify({ gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: '', data: 'invalid bearer token' }),
    }));
    try {
      const r = await doctor(url, 'doctor-token-5678');
      expect(r.code).toBe(1);
      expect(r.stdout.split('\n')[1]).toBe(
        `The service at ${url} refused vendesk's API token on every endpoint: check the token (VENDESK_TOKEN with --base-url, or the --profile in use).`,
      );
    } finally {
      server.close();
    }
  });
});

describe('the answers kept for support never hold the token or a phone number', () => {
  it('a service that echoes the bearer token and phone numbers into every answer: --json and Settings show them redacted', async () => {
    const token = 'echoed-secret-token-0f9e8d7c';
    const { url, server } = await serve(({ url: u, auth }) => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify({
        gatewayStatus: '00',
        gatewayMessage: 'Successfully Processed',
        requestReference: 'R',
        data: { youSent: auth, path: u, owner: '+234 803 123 4567', numbers: ['08061234567', '2348091234500'] },
      }),
    }));
    try {
      const r = await doctor(url, token, true);
      expect(r.stdout).not.toContain(token);
      expect(r.stdout).not.toMatch(/803 123 4567|8061234567|8091234500/);
      const answer = r.report?.checks.find((c) => c.endpoint === 'getSenderIds')?.answer;
      expect(answer?.body).toContain('Bearer [redacted]');
      expect(answer?.body).toContain('[phone …67]');
    } finally {
      server.close();
    }
  });

  it('a service that echoes the token back encoded (%, hex, HTML entities, spaced out, JSON-escaped, cut to 16 characters): neither doctor nor a CLI error shows it', async () => {
    // Characters JSON, URLs and HTML all escape, so no form equals the token as typed.
    const token = 'Tk"9\\wQ/2+Lm<&>vR7pZ3xY8_nB4';
    const bytes = [...Buffer.from(token)];
    const forms = [
      bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
      Buffer.from(token).toString('hex'),
      [...token].map((c) => `&#${c.charCodeAt(0)};`).join(''),
      token.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
      [...token].join(' '),
      JSON.stringify(token).slice(1, -1).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026'),
      token.slice(0, 16),
    ];
    const echo = (auth: string) => (auth === `Bearer ${token}` ? forms.map((f, i) => `form ${i}: ${f}`).join(' | ') : 'no token');
    const { url, server } = await serve(({ url: u, auth }) =>
      u.startsWith('/accountBalance') && auth !== ''
        ? {
            status: 400,
            type: 'application/json',
            body: JSON.stringify({ gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: '', data: `unknown key ${echo(auth)}` }),
          }
        : { status: 200, type: 'text/html', body: `<html><body><p>Your key: ${echo(auth)}</p></body></html>` },
    );
    try {
      const json = await doctor(url, token, true);
      const text = await doctor(url, token);
      let stdout = '';
      let stderr = '';
      await runCli(['balance', '--data-dir', dataDir], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: { VENDESK_BASE_URL: url, VENDESK_TOKEN: token } });
      expect(json.stdout).toContain('form 6: [redacted]');
      expect(stderr).toContain('[redacted]');
      for (const out of [json.stdout, text.stdout, stdout, stderr]) {
        for (const form of forms) expect(out).not.toContain(form);
        expect(out).not.toContain(token.slice(0, 16));
        expect(out).not.toMatch(/form \d: (?!\[redacted\])/);
      }
    } finally {
      server.close();
    }
  });

  it("Settings → Service answers: a send's answer is kept with its recipient's number hidden", async () => {
    const t = await startTestApp();
    try {
      const input = { target: { kind: 'number' as const, to: '08051234599' }, content: { kind: 'text' as const, text: 'Hidden number' }, emails: [] };
      const quote = await t.call('messaging.quote', input);
      await t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo });
      const { answers } = await t.call('connection.answers', {});
      const sent = answers.find((a) => a.endpoint === 'sendMessage');
      expect(sent).toMatchObject({ method: 'POST', path: '/sendMessage', httpStatus: 200, reading: 'read', envelope: true });
      expect(sent?.body).toContain('Hidden number');
      expect(sent?.body).toContain('[phone …99]');
      expect(JSON.stringify(answers)).not.toContain('8051234599');
      expect(JSON.stringify(answers)).not.toContain(t.token);
    } finally {
      await t.close();
    }
  });
});
