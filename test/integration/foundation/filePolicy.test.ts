/**
 * Which files the main side opens, per shell. The Electron policy is attacked the way a compromised
 * renderer would: naming a CSV elsewhere on disk, probing whether paths exist, guessing handles.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PickedFiles, type OpenDialogOptions } from '../../../src/main/shell/pickedFiles';
import { AppError } from '../../../src/shared/appError';
import type { FileRef } from '../../../src/shared/contract/files';
import { startTestApp, type TestApp } from '../../support/testApp';
import { makeContacts, tempDir, writeContactsCsv } from '../messaging/contactsFiles';

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message, hint: e.hint };
    throw e;
  }
  throw new Error('the call was answered');
}

describe('Electron file policy: only files chosen in vendesk’s dialog', () => {
  let t: TestApp;
  let picked: PickedFiles;
  let dir: string;
  let elsewhere: string;
  const dialogsShown: OpenDialogOptions[] = [];
  /** The user picks this file in the (fake) dialog. */
  const dialogChoosing = (file: string | null) => async (options: OpenDialogOptions) => {
    dialogsShown.push(options);
    return file === null ? { canceled: true, filePaths: [] } : { canceled: false, filePaths: [file] };
  };

  beforeAll(async () => {
    picked = new PickedFiles();
    t = await startTestApp({ filePolicy: picked });
    dir = tempDir();
    // A contacts file the user never chose, elsewhere on disk.
    elsewhere = writeContactsCsv(path.join(dir, 'salaries-elsewhere.csv'), makeContacts(5));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a raw path, existing or not, with the same message and without reading it', async () => {
    const missing = path.join(dir, 'no-such-file.csv');
    const attempts: FileRef[] = [{ path: elsewhere }, { path: missing }, { path: '/etc/passwd' }, { path: dir }];
    const answers = [];
    for (const file of attempts) {
      answers.push(await refusal(t.call('bulk.inspect', { file })));
      answers.push(await refusal(t.call('messaging.contacts.preview', { file })));
    }
    expect(answers[0]).toEqual({
      code: 'file_not_chosen',
      message: 'vendesk opens only files you choose in its file dialog.',
      hint: 'Choose the file again with the Choose button.',
    });
    // No existence oracle: every answer is the same, whatever is at the path.
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain('salaries');
  });

  it('refuses an upload id and a handle it never issued, the same way', async () => {
    for (const file of [{ uploadId: 'ab'.repeat(16) }, { fileHandle: 'cd'.repeat(16) }] as FileRef[]) {
      expect(await refusal(t.call('bulk.inspect', { file }))).toMatchObject({ code: 'file_not_chosen' });
    }
    // A handle issued by another run of the app (another PickedFiles) means nothing here.
    const other = await new PickedFiles().choose({}, dialogChoosing(elsewhere));
    expect(await refusal(t.call('messaging.contacts.preview', { file: other! }))).toMatchObject({ code: 'file_not_chosen' });
  });

  it('opens the file the user chose in the dialog, by the handle it issued', async () => {
    const ref = await picked.choose({ accept: '.csv,.xlsx,text/csv' }, dialogChoosing(elsewhere));
    expect(ref).toEqual({ fileHandle: expect.stringMatching(/^[0-9a-f]{32}$/), name: 'salaries-elsewhere.csv' });
    expect(dialogsShown.at(-1)).toMatchObject({ properties: ['openFile'], filters: [{ extensions: ['csv', 'xlsx'] }] });
    const inspected = await t.call('bulk.inspect', { file: ref! });
    expect(inspected).toMatchObject({ fileName: 'salaries-elsewhere.csv', format: 'csv' });
    const preview = await t.call('messaging.contacts.preview', { file: ref! });
    expect(preview.rows).toBe(5);
    expect(preview.valid).toBe(5);
  });

  it('gives no handle when the user cancels the dialog', async () => {
    expect(await picked.choose({}, dialogChoosing(null))).toBeNull();
  });

  it('says plainly when the chosen file was moved away since', async () => {
    const moved = writeContactsCsv(path.join(dir, 'moved.csv'), makeContacts(2));
    const ref = await picked.choose({}, dialogChoosing(moved));
    fs.rmSync(moved);
    expect(await refusal(t.call('bulk.inspect', { file: ref! }))).toMatchObject({ code: 'file_missing', message: 'The file you chose, moved.csv, is no longer there.' });
  });
});

describe('web and CLI file policies', () => {
  it('the web shell reads uploads only and refuses any path', async () => {
    const t = await startTestApp({ web: true });
    const dir = tempDir();
    try {
      const file = writeContactsCsv(path.join(dir, 'contacts.csv'), makeContacts(3));
      expect(await refusal(t.call('bulk.inspect', { file: { path: file } }))).toMatchObject({ code: 'path_refused' });
      expect(await refusal(t.call('bulk.inspect', { file: { fileHandle: 'ab'.repeat(16) } }))).toMatchObject({ code: 'path_refused' });
      fs.mkdirSync(path.join(t.dataDir, 'uploads'), { recursive: true });
      fs.copyFileSync(file, path.join(t.dataDir, 'uploads', 'ef'.repeat(16)));
      expect(await t.call('bulk.inspect', { file: { uploadId: 'ef'.repeat(16), name: 'contacts.csv' } })).toMatchObject({ fileName: 'contacts.csv', format: 'csv' });
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the CLI and tests name paths, and only paths', async () => {
    const t = await startTestApp();
    const dir = tempDir();
    try {
      const file = writeContactsCsv(path.join(dir, 'contacts.csv'), makeContacts(3));
      expect(await t.call('bulk.inspect', { file: { path: file } })).toMatchObject({ fileName: 'contacts.csv' });
      expect(await refusal(t.call('bulk.inspect', { file: { path: path.join(dir, 'missing.csv') } }))).toMatchObject({ code: 'file_missing' });
      expect(await refusal(t.call('bulk.inspect', { file: { uploadId: 'ab'.repeat(16) } }))).toMatchObject({ code: 'path_required' });
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
