/**
 * Files crossing the contract. The renderer never reads the disk: in Electron it passes the path
 * of the file the user picked; in the web shell the browser uploads it first (POST /api/upload)
 * and passes the upload's id. Exports are written by the main side into the data folder's
 * `exports/` and handed back as an ExportedFile the bridge can download or reveal.
 */
import { z } from 'zod';

export const fileRefSchema = z.union([
  z.object({ path: z.string().min(1), name: z.string().optional() }),
  z.object({ uploadId: z.string().regex(/^[a-f0-9]{32}$/, 'Not an upload id'), name: z.string().optional() }),
]);
export type FileRef = z.infer<typeof fileRefSchema>;

export interface ExportedFile {
  fileName: string;
  /** Absolute path on the machine running vendesk. */
  path: string;
  bytes: number;
  rows: number;
}
