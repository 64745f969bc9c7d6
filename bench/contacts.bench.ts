/**
 * Contacts import benchmark (issue 7): a 10,000-contact XLSX (messy, as people type numbers:
 * 080…, 234…, +234 …, numbers that lost their leading zero, about 1% invalid rows) imported end
 * to end into a new phonebook of a sandbox over real HTTP — read, validate, de-duplicate, upload
 * in chunks with progress — through the same operation the Messaging page and the CLI call.
 * Then the same file again, which must add nothing.
 *
 *   npm run bench -- contacts            # 10,000 contacts
 *   npm run bench -- contacts --rows 50000
 */
import fs from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/main/app';
import { dispatch } from '../src/main/dispatch';
import { startTestSandbox } from '../test/support/testSandbox';
import type { ContactsImportResult, PhonebookView } from '../src/shared/contract/messaging';
import { generateSpreadsheet } from './generate/spreadsheets';

function argNumber(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const rows = argNumber('rows', 10_000);
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'vendesk-contacts-bench-'));
  const file = path.join(dir, `contacts-${rows}.xlsx`);
  const token = 'bench-contacts-token';
  const sandbox = await startTestSandbox({ tokens: [token] });
  const app = await createApp({ dataDir: path.join(dir, 'app'), shell: 'test', connection: { baseUrl: sandbox.url, token, kind: 'sandbox', name: 'bench' } });
  try {
    const g0 = performance.now();
    await generateSpreadsheet(file, { kind: 'contacts', rows, format: 'xlsx', seed: 7, messy: true });
    const genMs = performance.now() - g0;

    const call = async <T>(name: string, input: unknown): Promise<T> => {
      const r = await dispatch(app, name, input);
      if (!r.ok) throw new Error(`${r.error.message} ${r.error.hint ?? ''}`);
      return r.value as T;
    };
    const pb = await call<PhonebookView>('messaging.phonebooks.create', { name: `Bench ${rows}`, description: 'contacts benchmark' });

    let firstUploadAt = 0;
    const unsubscribe = app.events.subscribe((e) => {
      if (e.name === 'contacts.progress' && !firstUploadAt && (e.payload as { total: number | null }).total) firstUploadAt = performance.now();
    });
    const t0 = performance.now();
    const first = await call<ContactsImportResult>('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id });
    const t1 = performance.now();
    unsubscribe();
    const again = await call<ContactsImportResult>('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id });
    const t2 = performance.now();
    const after = await call<PhonebookView[]>('messaging.phonebooks.list', {});

    const size = fs.statSync(file).size;
    const total = t1 - t0;
    console.log(`Contacts import, end to end (XLSX → sandbox phonebook over HTTP)`);
    console.log(
      `  machine: ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(`  file: ${rows.toLocaleString('en-US')} rows, ${(size / 1024 / 1024).toFixed(2)} MB (generated in ${(genMs / 1000).toFixed(2)} s, not counted)`);
    console.log(
      `  first import:  ${(total / 1000).toFixed(2)} s  — ${first.added.toLocaleString('en-US')} added, ${first.invalidCount} invalid rows explained, ${first.duplicateCount} repeats dropped, ${first.chunks} chunks (${Math.round(first.added / (total / 1000)).toLocaleString('en-US')} contacts/s)`,
    );
    if (firstUploadAt) console.log(`    of which read + validate: ${((firstUploadAt - t0) / 1000).toFixed(2)} s, upload: ${((t1 - firstUploadAt) / 1000).toFixed(2)} s`);
    console.log(`  re-import:     ${((t2 - t1) / 1000).toFixed(2)} s  — ${again.added} added, ${again.skipped.toLocaleString('en-US')} already in the phonebook`);
    console.log(`  phonebook now holds ${after.find((p) => p.id === pb.id)?.contactCount?.toLocaleString('en-US')} contacts`);
    if (again.added !== 0) throw new Error('re-import added contacts twice');
  } finally {
    await app.close();
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
