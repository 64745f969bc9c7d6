/**
 * The tests' own harness (test/support/testSandbox.ts) and control client (sandboxControl.ts): a
 * sandbox on 127.0.0.1 at a port chosen at run time, its tokens from a file, stopped by close();
 * control calls that change what the service itself answers, and refusals that say why.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../support/testSandbox';
import { Org } from './sandboxHarness';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-harness-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('startTestSandbox', () => {
  it('takes its organisations from a token file, refuses others, and stops on close()', async () => {
    const file = path.join(dir, 'tokens.txt');
    fs.writeFileSync(file, '# organisations\nfile-org-one\nfile-org-two  # the second\n', { mode: 0o600 });
    const sandbox = await startTestSandbox({ tokenFile: file });
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.port).toBeGreaterThan(0);
    expect((await new Org(sandbox.url, 'file-org-two').get('/AirtimeList')).status).toBe(200);
    expect((await new Org(sandbox.url, 'the-second').get('/AirtimeList')).status).toBe(401);
    await sandbox.close();
    await expect(fetch(`${sandbox.url}/AirtimeList`)).rejects.toThrow();
  });

  it('without tokens, any token is its own organisation', async () => {
    const sandbox = await startTestSandbox();
    try {
      const [a, b] = [sandbox.control('harness-a'), sandbox.control('harness-b')];
      await a.setWallet(1234.5);
      expect(await new Org(sandbox.url, 'harness-a').balance()).toBe(1234.5);
      expect(await new Org(sandbox.url, 'harness-b').balance()).not.toBe(1234.5);
      await b.advanceClock(60);
      expect((await a.clock()).offsetSeconds).toBe(0);
      expect((await b.clock()).offsetSeconds).toBe(60);
    } finally {
      await sandbox.close();
    }
  });
});

describe('SandboxControl', () => {
  it("answers the endpoint's data, typed, and throws with the sandbox's reason when refused", async () => {
    const sandbox = await startTestSandbox();
    try {
      const control = sandbox.control('harness-control');
      expect(await control.addFault({ path: '/purchaseAirtime', status: 503, count: 2 })).toEqual([
        { path: '/purchaseAirtime', status: 503, remaining: 2, withVoucherOnly: false },
      ]);
      await control.clearFaults();
      expect(await control.faults()).toEqual([]);
      await control.setLatency(5);
      expect(await control.latency()).toBe(5);
      await control.setShapes('alt');
      expect(await control.shapes()).toBe('alt');
      await control.reset();
      expect(await control.shapes()).toBe('standard');
      expect(await control.outbox()).toEqual([]);
      await expect(control.setWallet(-1)).rejects.toThrow(/\/__sandbox\/wallet answered 400/);
      expect((await control.send('POST', 'faults', { path: '/__sandbox/clock', status: 500 })).status).toBe(400);
    } finally {
      await sandbox.close();
    }
  });
});
