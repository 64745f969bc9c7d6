/**
 * Cancelling a call by its id, over real HTTP (the web shell) and over the IPC layer (with a fake
 * ipcMain), against a sandbox made slow by a latency proxy: a cancelled sync stops asking the
 * service, answers `cancelled`, and the next sync carries on and ends with every entry of the
 * service's own log exactly once. A session (or a window) cannot cancel another's call.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallResult } from '../../../src/shared/contract';
import { CALL_HEADER, SESSION_HEADER } from '../../../src/shared/webSession';
import { handleContractCalls, type CallerEvent } from '../../../src/main/shell/ipcCalls';
import { startWebShell, type WebShell } from '../../../src/main/web/webShell';
import { farServicePerTest, type FarService } from '../../support/farService';
import { allLogEntries } from '../../support/serviceLogEntries';
import { until } from '../../support/until';

const far = farServicePerTest();
const shells: WebShell[] = [];
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-static-'));

afterEach(async () => {
  for (const shell of shells.splice(0)) await shell.close();
});

async function webShell(f: FarService): Promise<WebShell> {
  const shell = await startWebShell({ app: f.app.app, staticDir });
  shells.push(shell);
  return shell;
}

/** A call as the renderer makes it: the session header, and a call id when given. */
async function post(shell: WebShell, pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: CallResult<unknown> }> {
  const response = await fetch(`${shell.origin}${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SESSION_HEADER]: shell.secret, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as CallResult<unknown> };
}

/** Requests the app made for log pages so far (through the proxy, so as the service saw them). */
const logRequests = (f: FarService) => f.proxy!.exchanges.filter((e) => e.url.startsWith('/logEntries')).length;

/** The log requests once those already on the wire when the call stopped have arrived; then none more come. */
async function expectNoMoreRequests(f: FarService): Promise<number> {
  await new Promise((r) => setTimeout(r, 150));
  const askedAtStop = logRequests(f);
  await new Promise((r) => setTimeout(r, 800));
  expect(logRequests(f)).toBe(askedAtStop);
  return askedAtStop;
}

/** The mirror against the service's own log: every transaction id once, none missing, none extra. */
async function expectMirrorEqualsService(f: FarService): Promise<void> {
  const service = await allLogEntries(f.sandbox.url, f.app.token);
  const mirrored = f.app.app.db.prepare('SELECT transaction_id FROM log_entries WHERE profile_id = ?').pluck().all(f.app.app.connection.profileId) as string[];
  expect(mirrored).toHaveLength(service.length);
  expect(new Set(mirrored).size).toBe(mirrored.length);
  expect(new Set(mirrored)).toEqual(new Set(service.map((e) => e.transaction_id)));
}

describe('cancel a call by its id over HTTP (web shell)', () => {
  it('a slow sync cancelled by its call id stops asking the service; the next sync completes with every entry once', async () => {
    const f = await far.start(3000, 120);
    const shell = await webShell(f);
    const callId = randomUUID();
    const running = post(shell, '/api/sync.run', {}, { [CALL_HEADER]: callId });
    await until(() => logRequests(f) >= 3, 'the sync to read a few pages');

    const cancel = await post(shell, `/api/cancel/${callId}`, {});
    expect(cancel).toEqual({ status: 200, body: { ok: true, value: { cancelled: true } } });
    const answer = await running;
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ ok: false, error: { code: 'cancelled', message: 'The sync was stopped.' } });

    // It stopped early: the service is asked nothing more, and far fewer pages than 3000 entries need were read.
    expect(await expectNoMoreRequests(f)).toBeLessThan(20);
    const status = await post(shell, '/api/sync.status', {});
    expect(status.body).toMatchObject({ ok: true, value: { running: false, interrupted: true } });

    // The id is spent: cancelling it again finds nothing.
    expect((await post(shell, `/api/cancel/${callId}`, {})).body).toEqual({ ok: true, value: { cancelled: false } });

    // The next sync carries on from the last page saved and ends equal to the service's log.
    const resumed = await post(shell, '/api/sync.run', {}, { [CALL_HEADER]: randomUUID() });
    expect(resumed.body).toMatchObject({ ok: true, value: { resumed: true } });
    await expectMirrorEqualsService(f);
  });

  it("attack: another session cannot cancel this session's call, nor can a request without the session", async () => {
    const f = await far.start(1500, 40);
    const mine = await webShell(f);
    const other = await webShell(f);
    const callId = randomUUID();
    const running = post(mine, '/api/sync.run', {}, { [CALL_HEADER]: callId });
    await until(() => logRequests(f) >= 2, 'the sync to start');

    // The other session knows the id (say it saw it): its cancel finds nothing of its own.
    expect((await post(other, `/api/cancel/${callId}`, {})).body).toEqual({ ok: true, value: { cancelled: false } });
    // No session header: refused before anything is looked up.
    const anonymous = await fetch(`${mine.origin}/api/cancel/${callId}`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    // A wrong session secret: refused too.
    const forged = await fetch(`${mine.origin}/api/cancel/${callId}`, {
      method: 'POST',
      headers: { [SESSION_HEADER]: other.secret.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
    });
    expect(forged.status).toBe(401);

    // The call was not stopped: it completes, and the mirror equals the service's log.
    const answer = await running;
    expect(answer.body).toMatchObject({ ok: true, value: { resumed: false } });
    await expectMirrorEqualsService(f);
  });

  it('refuses a malformed call id and an id already in use', async () => {
    const f = await far.start(200, 40);
    const shell = await webShell(f);
    const bad = await post(shell, '/api/sync.status', {}, { [CALL_HEADER]: 'x' });
    expect(bad.body).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'The call id must be 8 to 64 letters, digits, - or _.' } });
    const callId = randomUUID();
    const first = post(shell, '/api/sync.run', {}, { [CALL_HEADER]: callId });
    await until(() => logRequests(f) >= 1, 'the sync to start');
    const twice = await post(shell, '/api/sync.status', {}, { [CALL_HEADER]: callId });
    expect(twice.body).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'A call with this id is already running.' } });
    expect((await first).body).toMatchObject({ ok: true });
  });
});

/** A stand-in for Electron's ipcMain: the handlers, invoked as a window would. */
function fakeIpcMain() {
  const handlers = new Map<string, (event: CallerEvent, ...args: unknown[]) => unknown>();
  return {
    handle(channel: string, listener: (event: CallerEvent, ...args: unknown[]) => unknown) {
      handlers.set(channel, listener);
    },
    invoke(windowId: number, channel: string, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      return Promise.resolve(handler({ sender: { id: windowId } }, ...args));
    },
  };
}

describe('cancel a call by its id over IPC (Electron shell)', () => {
  it("a window cancels its own call; another window's cancel and an untrusted frame's are refused", async () => {
    const f = await far.start(3000, 120);
    const ipc = fakeIpcMain();
    const UNTRUSTED = 99;
    handleContractCalls(ipc, f.app.app, (event) => event.sender.id !== UNTRUSTED);

    const callId = randomUUID();
    const running = ipc.invoke(1, 'vendesk:call', 'sync.run', {}, callId) as Promise<CallResult<unknown>>;
    await until(() => logRequests(f) >= 3, 'the sync to read a few pages');
    expect(await ipc.invoke(2, 'vendesk:cancel', callId)).toEqual({ cancelled: false });
    expect(await ipc.invoke(UNTRUSTED, 'vendesk:cancel', callId)).toEqual({ cancelled: false });
    expect(await ipc.invoke(UNTRUSTED, 'vendesk:call', 'sync.status', {})).toMatchObject({ ok: false, error: { code: 'untrusted_sender' } });
    expect(await ipc.invoke(1, 'vendesk:cancel', callId)).toEqual({ cancelled: true });
    expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await expectNoMoreRequests(f)).toBeLessThan(20);

    // A call without an id still runs as before (it just cannot be cancelled by id).
    expect(await ipc.invoke(1, 'vendesk:call', 'sync.run', {})).toMatchObject({ ok: true, value: { resumed: true } });
    await expectMirrorEqualsService(f);
  });
});
