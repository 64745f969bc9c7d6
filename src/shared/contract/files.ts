/**
 * Files crossing the contract. The renderer never reads the disk, and never names a path: in
 * Electron it passes the handle main issued for the file the user chose in vendesk's open-file
 * dialog; in the web shell the browser uploads the file first (POST /api/upload) and passes the
 * upload's id; only the CLI names paths. Which of these a shell accepts is its file policy
 * (src/main/filePolicy.ts). Exports are written by the main side into the data folder's `exports/`
 * and handed back as an ExportedFile the bridge can download or reveal.
 */
import { z } from 'zod';

export const fileRefSchema = z.union([
  z.object({ path: z.string().min(1), name: z.string().optional() }),
  z.object({ uploadId: z.string().regex(/^[a-f0-9]{32}$/, 'Not an upload id'), name: z.string().optional() }),
  z.object({ fileHandle: z.string().regex(/^[a-f0-9]{32}$/, 'Not a file handle'), name: z.string().optional() }),
]);
export type FileRef = z.infer<typeof fileRefSchema>;

export interface ExportedFile {
  fileName: string;
  /** Absolute path on the machine running vendesk. */
  path: string;
  bytes: number;
  rows: number;
}
