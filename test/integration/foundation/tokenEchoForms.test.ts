/**
 * Issue 37, item 6, through the paths a person reads: a service that echoes the token back cut,
 * re-encoded or broken up — its last 16 characters, a run from its middle, its UTF-16 hex, base64
 * of its base64, soft hyphens or zero-width characters between its characters, full-width letters,
 * terminal colour codes between its characters. `vendesk balance` fails on that answer and
 * `vendesk doctor` keeps the answers for support: neither their --json documents nor what they
 * print show any of it. (test/unit/foundation/redactForms.test.ts has each form alone.)
 */
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main';

const TOKEN = 'Vd7_k+Q2/mXr=pL9tB4wZ6cN8hJ3sF5yG1aE0uR';
const chars = [...TOKEN];
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const FORMS = [
  TOKEN.slice(-16),
  TOKEN.slice(10, 30),
  Buffer.from(TOKEN, 'utf16le').swap16().toString('hex'),
  Buffer.from(TOKEN, 'utf16le').toString('hex'),
  b64(b64(TOKEN)),
  chars.join('\u00ad'),
  chars.join('\u200b'),
  TOKEN.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  chars.map((c, i) => (i === 0 ? c : `\x1b[3${i % 8}m${c}`)).join(''),
];

let dataDir: string;
let server: Server;
let url: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-echo-'));
  // Every answer to a request that carries the token echoes it back in every form above.
  const echo = (auth: string) => (auth === `Bearer ${TOKEN}` ? FORMS.map((f, i) => `form ${i}: ${f}`).join(' | ') : 'no token');
  server = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    if ((req.url ?? '').startsWith('/accountBalance') && auth !== '') {
      const body = { gatewayStatus: '88', gatewayMessage: 'Unsucessfull', requestReference: '', data: `unknown key ${echo(auth)}` };
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<html><body><p>Your key: ${echo(auth)}</p></body></html>`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function vendesk(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, '--data-dir', dataDir], {
    stdout: (t) => (stdout += `${t}\n`),
    stderr: (t) => (stderr += `${t}\n`),
    env: { VENDESK_BASE_URL: url, VENDESK_TOKEN: TOKEN },
  });
  return { code, stdout, stderr };
}

/** No form of the token, and no 16 characters of it in a row, in `out`; every form's place says [redacted]. */
function expectNoToken(out: string): void {
  for (const form of FORMS) expect(out).not.toContain(form);
  for (let i = 0; i + 16 <= TOKEN.length; i++) expect(out).not.toContain(TOKEN.slice(i, i + 16));
  expect(out).not.toMatch(/form \d+: (?!\[redacted\])/);
}

describe('a service that echoes the token cut, re-encoded or broken up', () => {
  it('a CLI error shows none of it, with --json or without', async () => {
    const json = await vendesk(['balance', '--json']);
    const text = await vendesk(['balance']);
    expect(json.code).toBe(1);
    expect(text.code).toBe(1);
    const error = (JSON.parse(json.stdout) as { error: { message: string; hint?: string } }).error;
    // The echo reached the message, each form in its place, redacted.
    for (let i = 0; i < FORMS.length; i++) expect(error.message).toContain(`form ${i}: [redacted]`);
    for (const out of [json.stdout, json.stderr, text.stdout, text.stderr, JSON.stringify(error)]) expectNoToken(out);
  });

  it('doctor shows none of it in the answers it keeps for support, with --json or without', async () => {
    const json = await vendesk(['doctor', '--json']);
    const text = await vendesk(['doctor']);
    for (let i = 0; i < FORMS.length; i++) expect(json.stdout).toContain(`form ${i}: [redacted]`);
    for (const out of [json.stdout, json.stderr, text.stdout, text.stderr]) expectNoToken(out);
  });
});
