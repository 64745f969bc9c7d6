import { teamOperations } from '../../shared/contract/team';
import { teamWorkspace } from '../team/teamWorkspace';
import type { HandlersOf } from './handlerTypes';

export const teamHandlers: HandlersOf<typeof teamOperations> = {
  'team.status': (_input, app) => teamWorkspace(app).status(),
  'team.join': (input, app) => teamWorkspace(app).join(input),
  'team.leave': (_input, app) => teamWorkspace(app).leave(),
  'approvals.list': (input, app) => teamWorkspace(app).listJobs(input.state, input.jobIds),
  'approvals.decide': (input, app) => teamWorkspace(app).decide(input.jobId, input.decision, input.note),
  'audit.verify': (_input, app) => teamWorkspace(app).verifyAudit(),
  'audit.export': (input, app) => teamWorkspace(app).exportAudit(input),
};
