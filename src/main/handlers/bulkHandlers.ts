import fs from 'node:fs';
import path from 'node:path';
import { bulkOperations } from '../../shared/contract/bulk';
import { firstSheetWithTable, inspectSpreadsheet, TEMPLATES, writeTemplate } from '../imports';
import { exportPath, exportsDir, fileRefName, resolveFileRef } from '../files';
import { createBulkService } from '../buying/bulkService';
import { importFailure } from '../buying/prepareJob';
import { auditBulkCaps } from '../team/teamAuditHooks';
import type { HandlersOf } from './handlerTypes';

export const bulkHandlers: HandlersOf<typeof bulkOperations> = {
  'bulk.inspect': async (input, app) => {
    const file = resolveFileRef(app, input.file);
    try {
      const info = await inspectSpreadsheet(file);
      const dataSheet = info.format === 'xlsx' ? await firstSheetWithTable(file, info.sheetNames) : null;
      return { fileName: fileRefName(input.file), format: info.format, sheetNames: info.sheetNames, dataSheet };
    } catch (error) {
      return importFailure(error);
    }
  },
  'bulk.template': async (input, app) => {
    // The same file every time, so it is named after its kind alone (no time stamp): written beside
    // it under a name of its own, then put in place of the last copy in one step.
    const file = path.join(exportsDir(app), `vendesk ${input.kind} template.${input.format}`);
    const fresh = exportPath(app, `vendesk ${input.kind} template`, input.format);
    await writeTemplate(input.kind, input.format, fresh);
    fs.renameSync(fresh, file);
    return { fileName: path.basename(file), path: file, bytes: fs.statSync(file).size, rows: TEMPLATES[input.kind].rows.length };
  },
  // Each operation works on the connection in use as it is asked, taken here once: a read is given
  // the connection, what may buy, settle or ask the service is given the session.
  'bulk.validate': (input, app) => app.service(createBulkService).validateOnly(app.session(), input),
  'bulk.prepare': (input, app, call) => app.service(createBulkService).prepare(app.session(), input, { signal: call.signal }),
  'bulk.preview': (input, app) => app.service(createBulkService).preview(app.session(), input.jobId),
  'bulk.invalidRows': (input, app) => app.service(createBulkService).invalidRows(app.connection, input.jobId, input.offset, input.limit),
  'bulk.items': (input, app) => app.service(createBulkService).items(app.connection, input.jobId, input.offset, input.limit, input.states),
  'bulk.setIncluded': (input, app) => app.service(createBulkService).setIncluded(app.session(), input.jobId, input.seqs, input.include),
  'bulk.setNetwork': (input, app) => app.service(createBulkService).setNetwork(app.session(), input.jobId, input.seqs, input.use),
  'bulk.confirm': (input, app) => app.service(createBulkService).confirm(app.session(), input),
  'bulk.pause': (input, app) => app.service(createBulkService).pause(app.connection, input.jobId),
  'bulk.resume': (input, app) => app.service(createBulkService).resume(app.session(), input.jobId, input.wait),
  'bulk.cancel': (input, app) => app.service(createBulkService).cancel(app.session(), input.jobId),
  'bulk.checkAgain': (input, app) => app.service(createBulkService).checkAgain(app.session(), input.jobId),
  'bulk.status': (input, app) => app.service(createBulkService).status(app.connection, input.jobId),
  'bulk.list': (input, app) => app.service(createBulkService).list(app.connection, input.limit),
  'bulk.resolveItems': (input, app) => app.service(createBulkService).resolveItems(app.connection, input.jobId, input.seqs, input.resolution, input.note),
  'bulk.discard': (input, app) => app.service(createBulkService).discard(app.connection, input.jobId),
  'bulk.export': (input, app) => app.service(createBulkService).exportResults(app.connection, input.jobId, input.format),
  'bulk.settings.get': (_input, app) => app.service(createBulkService).settingsView(app.connection),
  'bulk.settings.set': async (input, app) => {
    const service = app.service(createBulkService);
    const connection = app.connection;
    const before = service.settingsView(connection);
    const after = service.updateSettings(connection, input);
    await auditBulkCaps(app, before, after);
    return after;
  },
};
