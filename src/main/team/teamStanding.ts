/**
 * The team's side of standing orders (standing/standingTeam.ts): shared orders, occurrence claims
 * and standing approvals in the team database (team schema step 8).
 */
import { AppError } from '../../shared/appError';
import type { App } from '../appContext';
import type { StandingTeam } from '../standing/standingTeam';
import { teamWorkspace } from './teamWorkspace';

function notYet(): never {
  throw new AppError('standing_not_team', 'Standing orders are not shared with the team yet.', 'Run them on a desktop that is not joined to a team.');
}

export function teamStanding(app: App): StandingTeam {
  return {
    applies: (connection) => connection.kind === 'live' && teamWorkspace(app).link() !== null,
    member: () => teamWorkspace(app).link()?.user ?? 'a team member',
    publish: () => notYet(),
    refresh: async () => undefined,
    claim: () => notYet(),
    runTeamJob: () => notYet(),
    skip: () => notYet(),
    move: () => notYet(),
    approve: () => notYet(),
    approval: async () => null,
  };
}
