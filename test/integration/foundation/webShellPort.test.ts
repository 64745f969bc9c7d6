/**
 * The browser window's address is the same at every start: the web shell's port is remembered in
 * the data folder; when another program holds it, a free port is used and remembered instead.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberedPort, startOnRememberedPort } from '../../../src/main/web/rememberedPort';
import { startWebShell, type WebShell } from '../../../src/main/web/webShell';
import { startTestApp, type TestApp } from '../../support/testApp';

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-static-'));
fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>vendesk</title>');
let vendesk: TestApp | null = null;
const shells: WebShell[] = [];
const blockers: net.Server[] = [];

afterEach(async () => {
  for (const s of shells.splice(0)) await s.close();
  for (const b of blockers.splice(0)) await new Promise((r) => b.close(r));
  await vendesk?.close();
  vendesk = null;
});

describe('the web shell port', () => {
  it('is the same at the next start, on 127.0.0.1', async () => {
    vendesk = await startTestApp();
    const app = vendesk.app;
    const start = (port: number) => startWebShell({ app, staticDir, port });
    const first = await startOnRememberedPort(vendesk.dataDir, start);
    shells.push(first.started);
    expect(first.started.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(rememberedPort(vendesk.dataDir)).toBe(first.started.port);
    await shells.pop()!.close();

    const second = await startOnRememberedPort(vendesk.dataDir, start);
    shells.push(second.started);
    expect(second.started.port).toBe(first.started.port);
    expect(second.movedFrom).toBeNull();
    const answer = await fetch(`${second.started.origin}/`);
    expect(answer.status).toBe(200);
  });

  it('moves to a free port, and says so, when another program holds the remembered one', async () => {
    vendesk = await startTestApp();
    const app = vendesk.app;
    const start = (port: number) => startWebShell({ app, staticDir, port });
    const first = await startOnRememberedPort(vendesk.dataDir, start);
    const taken = first.started.port;
    await first.started.close();
    // Another program takes the port while vendesk is stopped.
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
    blockers.push(blocker);

    const second = await startOnRememberedPort(vendesk.dataDir, start);
    shells.push(second.started);
    expect(second.movedFrom).toBe(taken);
    expect(second.started.port).not.toBe(taken);
    expect(rememberedPort(vendesk.dataDir)).toBe(second.started.port);
    expect((await fetch(`${second.started.origin}/`)).status).toBe(200);
  });
});
