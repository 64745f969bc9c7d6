import type { teamRunOperations } from '../../shared/contract/teamRun';
import { adoptTeamJob } from '../team/teamJobRun';
import type { HandlersOf } from './handlerTypes';

export const teamRunHandlers: HandlersOf<typeof teamRunOperations> = {
  'bulk.adopt': (input, app) => adoptTeamJob(app, app.session(), input.teamJobId, input.wait),
};
