/**
 * In the Electron shell, main opens only files the user chose in vendesk's own open-file dialog
 * (src/main/shell/pickedFiles.ts). The pages keep their ordinary file choosers: here, a click on
 * any file input opens main's dialog instead of Chromium's, and the choice comes back to the page
 * as a File that stands for main's handle (empty: the renderer never reads the file). A file
 * dropped on the page is confirmed in the same dialog, opened on that file.
 */
import type { FileRef } from '../../shared/contract/files';
import { AppError } from '../../shared/appError';
import type { VendeskPreloadApi } from '../../preload/api';

const chosen = new WeakMap<File, FileRef>();

function deliver(input: HTMLInputElement, ref: FileRef): void {
  const file = new File([], ref.name ?? 'chosen file');
  chosen.set(file, ref);
  const list = new DataTransfer();
  list.items.add(file);
  input.files = list.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Sends every file input's click to main's dialog. Runs once, when the bridge loads in Electron. */
export function startElectronFilePicks(api: VendeskPreloadApi): void {
  document.addEventListener(
    'click',
    (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement) || input.type !== 'file') return;
      event.preventDefault();
      void api.pickFile({ accept: input.accept }).then((ref) => {
        if (ref) deliver(input, ref);
      });
    },
    true,
  );
}

/** The handle for a File the page got from a file input, or (a dropped file) from a confirming dialog. */
export async function electronFileRef(api: VendeskPreloadApi, file: File): Promise<FileRef> {
  const ref = chosen.get(file) ?? (await api.pickFile({ defaultPath: api.pathForFile(file) || undefined }));
  if (!ref) throw new AppError('file_not_chosen', 'No file was chosen.', 'Choose the file again.');
  return ref;
}
