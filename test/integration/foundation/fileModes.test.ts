/**
 * Security: another user of the computer can read nothing vendesk keeps. The attack is a data
 * folder in a shared place, or copied, with 0755 folders and a 0644 database, and a process
 * umask of 022: vendesk starts, writes exports, uploads, tokens and its database, and every file
 * must be mode 600 and every folder 700. Spreadsheets uploaded by the browser (personal data)
 * are deleted once used, and any an earlier run left behind are deleted at start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/main/app';
import { startWebShell, type WebShell } from '../../../src/main/web/webShell';
import { uploadedFilesPolicy } from '../../../src/main/filePolicy';
import { uploadsDirIn } from '../../../src/main/files';
import { SESSION_HEADER } from '../../../src/shared/webSession';

const LEFTOVER = 'a'.repeat(32);

/** Every folder and file under `dir` (itself included) with its permission bits, symlinks aside. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>([['.', fs.statSync(dir).mode & 0o777]]);
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const p = path.join(folder, entry.name);
      if (entry.isSymbolicLink()) continue;
      out.set(path.relative(dir, p) + (entry.isDirectory() ? '/' : ''), fs.lstatSync(p).mode & 0o777);
      if (entry.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

function expectPrivate(dir: string): Map<string, number> {
  const found = modes(dir);
  const loose = [...found].filter(([name, mode]) => mode !== (name === '.' || name.endsWith('/') ? 0o700 : 0o600)).map(([name, mode]) => `${name} ${mode.toString(8)}`);
  expect(loose).toEqual([]);
  return found;
}

describe("files and folders vendesk writes are its user's only, and uploads do not outlive their use", () => {
  let previousUmask = 0;
  let dataDir = '';
  let app: App;
  let shell: WebShell;
  let staticDir = '';

  async function start(): Promise<void> {
    // As the web shell's own start does: the browser names files only by uploading them.
    app = await createApp({ dataDir, shell: 'web', sandboxSeedHistory: 20, filePolicy: uploadedFilesPolicy(uploadsDirIn(dataDir)) });
    shell = await startWebShell({ app, staticDir });
  }
  async function stop(): Promise<void> {
    await shell.close();
    await app.close();
  }

  async function call<T>(name: string, input: unknown): Promise<T> {
    const response = await fetch(`${shell.origin}/api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SESSION_HEADER]: shell.secret },
      body: JSON.stringify(input),
    });
    const result = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } };
    if (!result.ok) throw new Error(`${name}: ${result.error?.message}`);
    return result.value as T;
  }

  async function upload(name: string, content: string): Promise<{ uploadId: string; name: string }> {
    const response = await fetch(`${shell.origin}/api/upload?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', [SESSION_HEADER]: shell.secret },
      body: content,
    });
    const result = (await response.json()) as { ok: boolean; value: { uploadId: string } };
    expect(result.ok).toBe(true);
    return { uploadId: result.value.uploadId, name };
  }

  const uploaded = (id: string) => fs.existsSync(path.join(dataDir, 'uploads', id));

  beforeAll(async () => {
    previousUmask = process.umask(0o022);
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-static-'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-modes-'));
    // A first run makes the database and the built-in sandbox's state…
    const first = await createApp({ dataDir, shell: 'web', sandboxSeedHistory: 20 });
    await first.close();
    // …then the folder is found as a shared folder or a copy leaves it.
    fs.chmodSync(dataDir, 0o755);
    for (const name of fs.readdirSync(dataDir)) fs.chmodSync(path.join(dataDir, name), 0o644);
    for (const folder of ['exports', 'uploads']) fs.mkdirSync(path.join(dataDir, folder), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, 'exports', 'Transactions 2026-01-01 0900.csv'), 'id\n1\n', { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, 'uploads', LEFTOVER), 'Phone,Amount\n08031234567,500\n', { mode: 0o644 });
    expect(fs.statSync(path.join(dataDir, 'vendesk.db')).mode & 0o777).toBe(0o644);
    await start();
  });

  afterAll(async () => {
    await stop();
    process.umask(previousUmask);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('at start, the folder and everything already in it become 700 and 600, and an upload an earlier run left is gone', () => {
    const found = expectPrivate(dataDir);
    expect([...found.keys()]).toEqual(expect.arrayContaining(['.', 'vendesk.db', 'sandbox.db', 'exports/', 'exports/Transactions 2026-01-01 0900.csv']));
    expect(uploaded(LEFTOVER)).toBe(false);
  });

  it('what it writes now is 600 in 700 folders: exports, an upload, a saved token, the database and its WAL', async () => {
    const xlsx = await call<{ path: string }>('logs.export', { format: 'xlsx' });
    const csv = await call<{ path: string }>('logs.export', { format: 'csv' });
    const file = await upload('staff.csv', 'Phone,Amount\n08031234567,500\n');
    const profile = await call<{ id: string }>('profiles.save', { name: 'Acme live', baseUrl: 'https://vending.example.com', token: 'modes-test-token-5e1f' });
    const found = expectPrivate(dataDir);
    expect([...found.keys()]).toEqual(
      expect.arrayContaining([
        `exports/${path.basename(xlsx.path)}`,
        `exports/${path.basename(csv.path)}`,
        'uploads/',
        `uploads/${file.uploadId}`,
        'tokens/',
        `tokens/${profile.id}.token`,
        'vendesk.db-wal',
        'vendesk.db-shm',
        'sandbox.db-wal',
      ]),
    );
  });

  it('an uploaded vendor export is deleted once its reconciliation has run', async () => {
    const file = await upload('export.csv', 'id,transaction_id,phone_number,amount,status,created_at\n1,TX-1,08031234567,500,SUCCESS,2026-01-05 10:00:00\n');
    expect(uploaded(file.uploadId)).toBe(true);
    await call('reconcile.start', { file });
    expect(uploaded(file.uploadId)).toBe(false);
  });

  it('an uploaded contacts file is deleted once imported', async () => {
    const phonebook = await call<{ id: number }>('messaging.phonebooks.create', { name: 'Modes test' });
    const file = await upload('contacts.csv', 'Name,Phone\nAda,08031234567\n');
    await call('messaging.contacts.preview', { file, phoneBookId: phonebook.id });
    expect(uploaded(file.uploadId)).toBe(true);
    await call('messaging.contacts.import', { file, phoneBookId: phonebook.id });
    expect(uploaded(file.uploadId)).toBe(false);
  });

  it('a bulk upload stays while its draft can be read again with other columns, and goes when the draft is discarded or confirmed', async () => {
    const sheet = 'Phone,Amount\n08031234567,500\n08051234567,200\n';
    const first = await upload('airtime.csv', sheet);
    const draft = await call<{ job: { id: string } }>('bulk.prepare', { file: first, kind: 'airtime' });
    const remapped = await call<{ job: { id: string } }>('bulk.prepare', { file: first, kind: 'airtime', mapping: { phone: 0, amount: 1 }, replaceJobId: draft.job.id });
    expect(uploaded(first.uploadId)).toBe(true);
    await call('bulk.discard', { jobId: remapped.job.id });
    expect(uploaded(first.uploadId)).toBe(false);

    const second = await upload('airtime.csv', sheet);
    const job = await call<{ job: { id: string } }>('bulk.prepare', { file: second, kind: 'airtime' });
    expect(uploaded(second.uploadId)).toBe(true);
    await call('bulk.confirm', { jobId: job.job.id, wait: true });
    expect(uploaded(second.uploadId)).toBe(false);
  });

  it('after a restart, an upload left unused is gone and every mode still holds', async () => {
    const left = await upload('never-used.csv', 'Phone,Amount\n08031234567,500\n');
    expect(uploaded(left.uploadId)).toBe(true);
    await stop();
    await start();
    expect(uploaded(left.uploadId)).toBe(false);
    expectPrivate(dataDir);
  });
});
