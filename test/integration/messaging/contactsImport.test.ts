/** Contacts from CSV and XLSX into sandbox phonebooks, through the one importer, once for each form of the messaging answers. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../src/shared/contract';
import { ANSWER_FORMS, startTestApp, type TestApp } from '../../support/testApp';
import { refusal } from '../../support/refusal';
import { makeContacts, tempDir, writeContactsCsv, writeContactsXlsx } from './contactsFiles';

describe.each(ANSWER_FORMS)('contacts, answers in the $name form', (form) => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp(form.options);
    dir = tempDir();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('contacts import', () => {
    it('previews a CSV: numbers normalized, repeats dropped, invalid rows explained', async () => {
      const lines = makeContacts(5);
      const file = writeContactsCsv(path.join(dir, 'staff.csv'), lines, ['Bad One,0703', `Repeat,${lines[0].phone}`]);
      const preview = await t.call('messaging.contacts.preview', { file: { path: file } });
      expect(preview).toMatchObject({ format: 'csv', rows: 7, valid: 5, invalidCount: 1, duplicateCount: 1, phoneColumn: 'Phone Number', nameColumn: 'Name' });
      expect(preview.invalid[0]).toMatchObject({ row: 7 });
      expect(preview.invalid[0].message).toMatch(/Row 7: 0703 is not a Nigerian mobile number/);
      expect(preview.duplicates[0].message).toMatch(/already on row 2/);
      expect(preview.sample.every((c) => /^0\d{10}$/.test(c.phone))).toBe(true);
    });

    it('uploads an XLSX into a phonebook in chunks with progress; re-importing adds nothing twice', async () => {
      const pb = await t.call('messaging.phonebooks.create', { name: 'All staff', description: 'HR list' });
      const file = await writeContactsXlsx(path.join(dir, 'staff.xlsx'), makeContacts(1_200), [['No number', '']]);
      const events: EventMap['contacts.progress'][] = [];
      const unsubscribe = subscribeTo(t, (p) => events.push(p));
      const first = await t.call('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id });
      unsubscribe();
      expect(first).toMatchObject({ phoneBookId: pb.id, rows: 1_201, valid: 1_200, added: 1_200, skipped: 0, invalidCount: 1, cancelled: false, chunks: 3 });
      const uploads = events.filter((e) => e.phoneBookId === pb.id && e.total === 1_200);
      expect(uploads.map((e) => e.done)).toEqual(expect.arrayContaining([500, 1_000, 1_200]));

      const page = await t.call('messaging.phonebooks.get', { id: pb.id, limit: 10 });
      expect(page.phonebook.contactCount).toBe(1_200);
      expect(page.contacts).toHaveLength(10);
      expect(page.contacts[0].phoneNumber).toMatch(/^0\d{10}$/);

      const preview = await t.call('messaging.contacts.preview', { file: { path: file }, phoneBookId: pb.id });
      expect(preview.alreadyInPhonebook).toBe(1_200);
      expect(preview.importedBefore).not.toBeNull();

      const again = await t.call('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id });
      expect(again).toMatchObject({ added: 0, skipped: 1_200, chunks: 0 });
      // The sparse form's phonebook list does not say how many contacts a phonebook holds: unknown, never 0.
      expect((await t.call('messaging.phonebooks.list', {})).find((p) => p.id === pb.id)?.contactCount).toBe(form.sparse ? null : 1_200);
      if (form.sparse) expect(first.notes.join(' ')).toMatch(/counted them in the phonebook afterwards \(1,200\)/);

      // A longer file with the same people plus new ones adds only the new ones.
      const bigger = await writeContactsXlsx(path.join(dir, 'staff-v2.xlsx'), makeContacts(1_250));
      const third = await t.call('messaging.contacts.import', { file: { path: bigger }, phoneBookId: pb.id });
      expect(third).toMatchObject({ added: 50, skipped: 1_200 });

      const search = await t.call('messaging.phonebooks.get', { id: pb.id, search: 'Staff 1250' });
      expect(search.matching).toBe(1);
    });

    it('cancel stops the upload after the chunk in flight; importing again completes it without doubles', async () => {
      const pb = await t.call('messaging.phonebooks.create', { name: 'Cancelled', description: '' });
      const file = await writeContactsXlsx(path.join(dir, 'cancel.xlsx'), makeContacts(2_000, 50_000));
      const unsubscribe = subscribeTo(t, (p) => {
        if (p.phoneBookId === pb.id && p.done >= 500) void t.call('messaging.contacts.cancel', { phoneBookId: pb.id });
      });
      const first = await t.call('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id });
      unsubscribe();
      expect(first.cancelled).toBe(true);
      expect(first.added).toBeGreaterThanOrEqual(500);
      expect(first.added).toBeLessThan(2_000);
      const rest = await t.call('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id });
      expect(rest).toMatchObject({ cancelled: false, skipped: first.added, added: 2_000 - first.added });
    });

    it('explains a file without a phone column and a phonebook that does not exist', async () => {
      const file = path.join(dir, 'names.csv');
      fs.writeFileSync(file, 'Name,Department\nAda,Finance\n');
      const pb = await t.call('messaging.phonebooks.create', { name: 'X', description: '' });
      const err = await refusal(t.call('messaging.contacts.import', { file: { path: file }, phoneBookId: pb.id }));
      expect(err.code).toBe('import_missing_column');
      expect(err.message).toMatch(/No Phone column found/);
      const csv = writeContactsCsv(path.join(dir, 'ok.csv'), makeContacts(2));
      const missing = await refusal(t.call('messaging.contacts.import', { file: { path: csv }, phoneBookId: 9_999 }));
      expect(missing.code).toBe('phonebook_not_found');
    });
  });
});

function subscribeTo(t: TestApp, fn: (p: EventMap['contacts.progress']) => void): () => void {
  return t.app.events.subscribe((event) => {
    if (event.name === 'contacts.progress') fn(event.payload as EventMap['contacts.progress']);
  });
}
