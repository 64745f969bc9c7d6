import { teamOperations } from '../../shared/contract/team';
import { resumeApprovedPurchase } from '../team/approvedPurchases';
import { writePendingTeamOutcomes } from '../team/teamOutcomeRetry';
import { teamWorkspace } from '../team/teamWorkspace';
import type { HandlersOf } from './handlerTypes';

export const teamHandlers: HandlersOf<typeof teamOperations> = {
  'team.status': (_input, app) => teamWorkspace(app).status(),
  'team.join': (input, app) => teamWorkspace(app).join(input),
  'team.leave': (_input, app) => teamWorkspace(app).leave(),
  'approvals.list': async (input, app) => {
    // Approved single purchases bought here: their outcomes reach the team database as the list is read.
    await writePendingTeamOutcomes(app, 'single');
    return teamWorkspace(app).listJobs(input.state, input.jobIds);
  },
  'approvals.rows': (input, app) => teamWorkspace(app).jobRows(input.jobId, input.page, input.pageSize),
  'team.setPolicy': (input, app) => teamWorkspace(app).setPolicy(input),
  'team.setThreshold': (input, app) => teamWorkspace(app).setThreshold(input.thresholdKobo),
  'purchases.resume': (input, app) => resumeApprovedPurchase(app, app.session(), input.teamJobId),
  'approvals.decide': (input, app) => teamWorkspace(app).decide(input.jobId, input.decision, input.note),
  'audit.verify': (_input, app) => teamWorkspace(app).verifyAudit(),
  'audit.export': (input, app) => teamWorkspace(app).exportAudit(input),
};
