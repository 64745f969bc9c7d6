/**
 * The desktop app's file choosing, in the real renderer: the Electron runtime cannot run here, so
 * a stand-in preload (`window.vendesk`) carries the contract straight to dispatch in this process,
 * against an app with the Electron shell's file policy, and a fake dialog stands in for Electron's.
 * Everything the renderer and main do with files is the real code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dispatch } from '../../src/main/dispatch';
import { PickedFiles, type OpenDialogOptions } from '../../src/main/shell/pickedFiles';
import { makeContacts, tempDir, writeContactsCsv } from '../integration/messaging/contactsFiles';
import { startTestApp } from '../support/testApp';
import { expect, saveScreen, test } from './support/fixtures';

test('a page’s file chooser opens vendesk’s own dialog, the chosen file is read by its handle, and a named path is refused', async ({ browser }) => {
  const picked = new PickedFiles();
  // The web shell only serves the built renderer here; every call goes through the stand-in preload.
  const vendesk = await startTestApp({ web: true, filePolicy: picked });
  const dir = tempDir();
  const chosenFile = writeContactsCsv(path.join(dir, 'field-staff.csv'), makeContacts(5));
  const neverChosen = writeContactsCsv(path.join(dir, 'payroll-elsewhere.csv'), makeContacts(9));
  const dialogs: OpenDialogOptions[] = [];
  const page = await browser.newPage();
  const chromiumChoosers: string[] = [];
  page.on('filechooser', () => chromiumChoosers.push('Chromium opened its own file chooser'));
  try {
    await page.exposeFunction('__vendeskCall', (name: string, input: unknown) => dispatch(vendesk.app, name, input));
    await page.exposeFunction('__vendeskPickFile', (request: unknown) =>
      picked.choose(request, async (options) => {
        dialogs.push(options);
        return { canceled: false, filePaths: [chosenFile] };
      }),
    );
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      Object.defineProperty(window, 'vendesk', {
        value: Object.freeze({
          call: (name: string, input: unknown) => w.__vendeskCall(name, input),
          on: () => () => {},
          pickFile: (request: unknown) => w.__vendeskPickFile(request),
          pathForFile: () => '',
          reveal: async () => {},
        }),
      });
    });
    await page.goto(`${vendesk.shell!.origin}/#/messaging`);
    await expect(page.getByRole('heading', { name: 'Messaging', level: 1 })).toBeVisible();
    await page.getByRole('tab', { name: 'Phonebooks' }).click();
    await page.getByLabel('Name').fill('Field staff');
    await page.getByRole('button', { name: 'Create phonebook' }).click();
    await expect(page.getByRole('heading', { name: 'Import contacts into Field staff' })).toBeVisible();

    await page.getByRole('button', { name: 'Choose file…' }).click();
    const preview = page.getByTestId('contacts-preview');
    await expect(preview).toContainText('field-staff.csv');
    await expect(preview).toContainText('5 new contacts will be added');
    expect(dialogs).toHaveLength(1);
    expect(dialogs[0]).toMatchObject({ properties: ['openFile'], filters: [{ extensions: ['csv', 'xlsx'] }] });
    expect(chromiumChoosers).toEqual([]);
    await saveScreen(page, 'electron-file-picked.png', { fullPage: true });

    // A compromised page naming a file, or probing whether one exists, learns nothing.
    const answers = await page.evaluate(
      async (paths) => Promise.all(paths.map((p) => window.vendesk!.call('messaging.contacts.preview', { file: { path: p } }))),
      [neverChosen, path.join(dir, 'no-such-file.csv')],
    );
    for (const answer of answers)
      expect(answer).toEqual({
        ok: false,
        error: { code: 'file_not_chosen', message: 'vendesk opens only files you choose in its file dialog.', hint: 'Choose the file again with the Choose button.' },
      });
  } finally {
    await page.close();
    await vendesk.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
