/**
 * Another team member's change reaches this desktop's windows at once, instead of at the next
 * poll: the team schema's triggers (step 6) `NOTIFY` on TEAM_CHANGES_CHANNEL whenever a job, an
 * approval, a claim, a team setting or an audit row is written (by any desktop, through any
 * function), and an app the shell keeps open `LISTEN`s there on a connection of its own. Each
 * notification tells the windows what changed (`app.invalidate`): `jobs` for a job, approval, claim
 * or audit row (Approvals, a bulk job's team panel and the job list re-read), `team` for a team
 * setting (the policy line and Settings → Team).
 *
 * The connection follows the team link: opened once the desktop has joined (checked every
 * LINK_CHECK_MS and right after a join), closed when it leaves or the app closes. When it fails
 * or the database goes away, it is opened again on the next check; each time it opens, the windows
 * re-read once, for what changed while nobody was listening. Nothing here ever throws.
 */
import pg from 'pg';
import type { DataTopic } from '../../shared/contract/events';
import type { AppPart } from '../appContext';
import { periodicPass, type PeriodicPass } from '../periodicPass';
import { teamClientConfig, teamLink, teamPassword } from './teamLink';

/** The channel the team schema's triggers notify (team schema step 6). */
export const TEAM_CHANGES_CHANNEL = 'vendesk_team_changed';

/** Between two checks that the listening connection matches the team link. */
export const LINK_CHECK_MS = 30_000;

/**
 * Notifications within this long make one re-read: a running job claims and settles item after
 * item, and the windows need not re-read for each.
 */
const COALESCE_MS = 1_000;

export interface TeamChanges {
  /** Starts listening (and checking the link), for an app the shell keeps open. */
  start(): void;
  /** Opens, re-opens or closes the connection as the team link now says (after a join or leave). */
  check(): Promise<void>;
  /** True while a connection listens. */
  readonly listening: boolean;
}

export function createTeamChanges(app: AppPart<'invalidate' | 'onClose' | 'settings' | 'teamPasswords'>): TeamChanges {
  let client: pg.Client | null = null;
  let listeningTo: string | null = null;
  let started = false;
  let pending: NodeJS.Timeout | null = null;
  const topics = new Set<DataTopic>();
  /** `table`: the notification's payload, the table the trigger fired on. */
  const changed = (table: string | undefined) => {
    topics.add(table === 'team_settings' ? 'team' : table === 'month_closes' ? 'monthEnd' : 'jobs');
    pending ??= setTimeout(() => {
      pending = null;
      const all = [...topics];
      topics.clear();
      if (started) app.invalidate(all, 'the team database changed');
    }, COALESCE_MS).unref();
  };

  const drop = () => {
    const c = client;
    client = null;
    listeningTo = null;
    if (c) void c.end().catch(() => undefined);
  };

  const check = async (): Promise<void> => {
    if (!started) return;
    const link = teamLink(app);
    if (!link) return drop();
    if (client && listeningTo === link.url) return;
    drop();
    const password = teamPassword(app);
    if (!password) return;
    const c = new pg.Client(teamClientConfig(link.url, password));
    // A connection the server drops emits 'error' (besides 'end'): it is let go, and the next check opens another.
    c.on('error', () => {
      if (client === c) drop();
    });
    c.on('end', () => {
      if (client === c) drop();
    });
    c.on('notification', (n) => {
      if (n.channel === TEAM_CHANGES_CHANNEL) changed(n.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${TEAM_CHANGES_CHANNEL}`);
    } catch {
      void c.end().catch(() => undefined);
      return;
    }
    if (!started || teamLink(app)?.url !== link.url) {
      void c.end().catch(() => undefined);
      return;
    }
    client = c;
    listeningTo = link.url;
    // What changed while nobody listened.
    app.invalidate(['jobs', 'team'], 'listening to the team database');
  };

  const loop: PeriodicPass = periodicPass(app, LINK_CHECK_MS, check);
  app.onClose(() => {
    started = false;
    if (pending) clearTimeout(pending);
    drop();
  });
  return {
    start() {
      if (started) return;
      started = true;
      loop.start();
      void loop.tick();
    },
    check: () => loop.tick(),
    get listening() {
      return client !== null;
    },
  };
}
