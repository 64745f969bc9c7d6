/**
 * The upload each bulk draft was read from (web shell): kept while the draft may be read again
 * with another column mapping, deleted once it is confirmed or discarded.
 */
import type { FileRef } from '../../shared/contract/files';
import type { App } from '../appContext';
import { releaseUpload } from '../files';

export class DraftUploads {
  private readonly byJob = new Map<string, FileRef>();

  constructor(private readonly app: App) {}

  keep(jobId: string, file: FileRef, replaced: string | undefined): void {
    const previous = replaced === undefined ? undefined : this.byJob.get(replaced);
    if (replaced !== undefined) this.byJob.delete(replaced);
    const sameFile = previous !== undefined && 'uploadId' in previous && 'uploadId' in file && file.uploadId === previous.uploadId;
    if (previous && !sameFile) releaseUpload(this.app, previous);
    if ('uploadId' in file) this.byJob.set(jobId, file);
  }

  release(jobId: string): void {
    const upload = this.byJob.get(jobId);
    this.byJob.delete(jobId);
    if (upload) releaseUpload(this.app, upload);
  }
}
