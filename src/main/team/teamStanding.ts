/**
 * The team's side of standing orders (standing/standingTeam.ts), against team schema step 8: an
 * order's confirmed versions are published to the team database (its rows' digest computed there
 * and here, `itemsDigest.ts`, and compared), every desktop and server of the organisation reads
 * them back into its own store (`refresh`), each occurrence is claimed there once with its team
 * job — an ordinary bulk team job, run here as `bulk adopt` runs one (teamJobRun.ts), its rows
 * claimed one by one — and a standing approval the database checks lets a run within it through.
 */
import type pg from 'pg';
import { AppError } from '../../shared/appError';
import { normalizeBaseUrl } from '../../shared/baseUrl';
import type { StandingApprovalView } from '../../shared/contract/standing';
import { lagosToday } from '../../shared/localDates';
import type { App } from '../appContext';
import { createServiceClock } from '../api/serviceClock';
import type { NewItem } from '../buying/jobRows';
import { OccurrenceMoves } from '../standing/occurrenceMoves';
import { rowsOf, StandingStore, type OrderMoveName, type OrderRow, type VersionRow } from '../standing/standingStore';
import type { StandingTeam, TeamClaim } from '../standing/standingTeam';
import { callTeam } from './teamCall';
import { checkItemsDigest, itemsDigest } from './itemsDigest';
import { serviceIdentity, type TeamItem, type TeamRunSpec } from './teamRunSpec';
import { adoptTeamJob } from './teamJobRun';
import { teamWorkspace } from './teamWorkspace';

interface ClaimRecord {
  claimed_here: boolean;
  state: 'started' | 'skipped';
  job_id: string | null;
  decided_by: string;
  desktop_name: string;
  approved_by: 'standing_approval' | 'approval' | null;
  note: string | null;
}

interface ApprovalRecord {
  id: string;
  version: number;
  rows_digest: string;
  ceiling_kobo: string;
  runs: number | null;
  until: string | null;
  approvals_needed: number;
  granted_at: Date | null;
  approved_by: string[] | null;
  runs_used: number;
  stops: string | null;
}

const claimOf = (r: ClaimRecord): TeamClaim => ({
  claimedHere: r.claimed_here,
  state: r.state,
  teamJobId: r.job_id,
  by: `${r.decided_by} (${r.desktop_name})`,
  approvedBy: r.approved_by,
  note: r.note,
});

const CLAIM_COLUMNS = 'claimed_here, state, job_id::text, decided_by, desktop_name, approved_by, note';

/** The digest of an order version's rows, as the team database computes it (`items_digest`). */
function versionDigest(version: VersionRow): string {
  return itemsDigest(rowsOf(version));
}

/** A job's item as the team database stores it. */
function teamItemOf(i: NewItem): TeamItem {
  const { state: _state, duplicateOf: _duplicateOf, ...item } = i;
  return item;
}

export function teamStanding(app: App): StandingTeam {
  const team = () => teamWorkspace(app);
  const desktop = () => team().desktop();
  const today = () => lagosToday(app.service(createServiceClock).now());

  async function readApproval(client: pg.ClientBase, order: OrderRow, version: VersionRow | undefined): Promise<StandingApprovalView | null> {
    const r = await client.query<ApprovalRecord>(
      `SELECT a.id::text, a.version, a.rows_digest, a.ceiling_kobo::text, a.runs, a.until::text, a.approvals_needed, a.granted_at,
              (SELECT array_agg(s.approver::text ORDER BY s.signed_at) FROM vendesk.standing_approval_signers s WHERE s.approval_id = a.id) AS approved_by,
              (SELECT count(*)::int FROM vendesk.standing_occurrences c WHERE c.approval_id = a.id) AS runs_used,
              vendesk.standing_approval_refusal(a, $2, $3, NULL, NULL, NULL) AS stops
         FROM vendesk.standing_approval_of($1::uuid) a WHERE a.id IS NOT NULL`,
      [order.id, version ? versionDigest(version) : null, version?.total_kobo ?? null],
    );
    const a = r.rows[0];
    if (!a) return null;
    return {
      id: a.id,
      version: a.version,
      rowsDigest: a.rows_digest,
      ceilingKobo: Number(a.ceiling_kobo),
      runs: a.runs,
      until: a.until,
      state: a.granted_at ? 'granted' : 'pending',
      approvedBy: a.approved_by ?? [],
      approvalsNeeded: a.approvals_needed,
      runsUsed: a.runs_used,
      stops: a.stops,
    };
  }

  /** The team's orders of this service, with their versions, state and occurrences, written into this desktop's store. */
  async function refresh(): Promise<void> {
    const connection = app.connection;
    const baseUrl = normalizeBaseUrl(connection.baseUrl);
    const data = await team().withClient(async (client) => {
      const orders = await client.query<{
        id: string;
        kind: OrderRow['kind'];
        name: string;
        state: 'active' | 'paused' | 'ended';
        state_by: string | null;
        state_day: string | null;
        created_by: string;
      }>(
        `SELECT id::text, kind, name, state, state_by, to_char(state_at AT TIME ZONE 'Africa/Lagos', 'YYYY-MM-DD') AS state_day, created_by
           FROM vendesk.standing_orders WHERE base_url = $1 ORDER BY created_at`,
        [baseUrl],
      );
      const ids = orders.rows.map((o) => o.id);
      const versions = await client.query<{
        order_id: string;
        version: number;
        name: string;
        rule: string;
        weekend: VersionRow['weekend'];
        grace_days: number;
        effective_from: string;
        rows: unknown[];
        rows_digest: string;
        published_by: string;
      }>(
        `SELECT order_id::text, version, name, rule, weekend, grace_days, effective_from::text, rows, rows_digest, published_by
           FROM vendesk.standing_versions WHERE order_id = ANY($1::uuid[]) ORDER BY order_id, version`,
        [ids],
      );
      const occurrences = await client.query<{
        order_id: string;
        scheduled_day: string;
        due_day: string;
        state: 'started' | 'skipped';
        version: number | null;
        job_id: string | null;
        note: string | null;
        decided_by: string;
        desktop_id: string;
      }>(
        `SELECT order_id::text, scheduled_day::text, due_day::text, state, version, job_id::text, note, decided_by, desktop_id
           FROM vendesk.standing_occurrences WHERE order_id = ANY($1::uuid[]) ORDER BY order_id, scheduled_day`,
        [ids],
      );
      return { orders: orders.rows, versions: versions.rows, occurrences: occurrences.rows };
    }, 'read');
    const store = new StandingStore(app.db);
    const moves = new OccurrenceMoves(app.db);
    const here = desktop().id;
    for (const o of data.orders) {
      const local = store.order(o.id);
      if (local && (local.team !== 1 || local.profile_id !== connection.profileId)) continue;
      for (const v of data.versions.filter((x) => x.order_id === o.id)) {
        if (store.order(o.id) && store.version(o.id, v.version)?.confirmed_at) continue;
        const next = {
          name: v.name,
          rule: v.rule,
          weekend: v.weekend,
          graceDays: v.grace_days,
          effectiveFrom: v.effective_from,
          rows: v.rows as ReturnType<typeof rowsOf>,
          rowsDigest: v.rows_digest,
          source: 'the team database',
          change: v.version === 1 ? 'created' : 'a new version from the team',
          changedBy: v.published_by,
        };
        if (store.order(o.id)) store.addVersion(o.id, next);
        else store.createOrder({ id: o.id, name: v.name, kind: o.kind, connection, team: true, createdBy: o.created_by }, next);
        store.confirmVersion(o.id, store.pendingVersion(o.id)?.version ?? v.version, v.published_by, v.effective_from, v.rows_digest);
      }
      const now = store.order(o.id);
      if (!now) continue;
      const move: OrderMoveName | null =
        o.state === now.state
          ? null
          : o.state === 'ended'
            ? 'end'
            : o.state === 'paused' && now.state === 'active'
              ? 'pause'
              : o.state === 'active' && now.state === 'paused'
                ? 'resume'
                : null;
      if (move) store.move(move, o.id, o.state_by ?? o.created_by, o.state_day ?? today());
      for (const c of data.occurrences.filter((x) => x.order_id === o.id)) {
        const mine = store.occurrence(o.id, c.scheduled_day);
        if (mine && mine.state !== 'waiting') continue;
        const key = { orderId: o.id, scheduledDay: c.scheduled_day };
        if (c.state === 'skipped') moves.skip(key, { dueDay: c.due_day, version: c.version, reason: c.note ?? `Skipped in the team by ${c.decided_by}.`, decidedBy: c.decided_by });
        else
          moves.start(key, { dueDay: c.due_day, version: c.version, teamJobId: c.job_id as string, claimedHere: c.desktop_id === here, reason: c.note, decidedBy: c.decided_by });
      }
    }
  }

  return {
    applies: (connection) => connection.kind === 'live' && team().link() !== null,
    member: () => team().link()?.user ?? 'a team member',

    async publish(order, version) {
      // Nothing is bought: the version is shared for the connection in use.
      const identity = await serviceIdentity(app.session());
      const local = versionDigest(version);
      const d = desktop();
      const from = version.effective_from > today() ? version.effective_from : today();
      const digest = await team().withClient(async (client) => {
        const r = await callTeam<'publish_standing_version', { digest: string }>(
          client,
          'publish_standing_version',
          {
            orderId: order.id,
            kind: order.kind,
            name: version.name,
            baseUrl: identity.baseUrl,
            accountNumber: identity.accountNumber,
            version: version.version,
            rule: version.rule,
            weekend: version.weekend,
            graceDays: version.grace_days,
            effectiveFrom: from,
            rows: version.rows_json,
            desktopId: d.id,
            desktopName: d.name,
          },
          { alias: 'digest' },
        );
        return r.rows[0].digest;
      }, 'prepare');
      checkItemsDigest(`for standing order ${order.id}`, digest, local, `The rows of standing order ${order.name}`);
      return { rowsDigest: digest };
    },

    refresh,

    async claim(session, order, occurrence, items, walletKobo, byHand) {
      const identity = await serviceIdentity(session);
      const spec: TeamRunSpec = { ...identity, bulkKind: order.kind, sheetName: null, headers: [], mapping: {}, rowsTotal: items.length };
      const d = desktop();
      const r = await team().withClient(
        (client) =>
          callTeam<'claim_standing_occurrence', ClaimRecord>(
            client,
            'claim_standing_occurrence',
            {
              orderId: order.id,
              scheduledDay: occurrence.scheduledDay,
              dueDay: occurrence.dueDay,
              version: occurrence.version,
              fileName: occurrence.fileName,
              fileSha256: occurrence.fileHash,
              walletKobo,
              runSpec: JSON.stringify(spec),
              items: JSON.stringify(items.map(teamItemOf)),
              byHand,
              desktopId: d.id,
              desktopName: d.name,
            },
            { columns: CLAIM_COLUMNS },
          ),
        'claim',
      );
      return claimOf(r.rows[0]);
    },

    runTeamJob: (session, teamJobId, wait) => adoptTeamJob(app, session, teamJobId, wait),

    async skip(order, occurrence, reason) {
      const d = desktop();
      const r = await team().withClient(
        (client) =>
          callTeam<'skip_standing_occurrence', ClaimRecord>(
            client,
            'skip_standing_occurrence',
            { orderId: order.id, scheduledDay: occurrence.scheduledDay, dueDay: occurrence.dueDay, reason, desktopId: d.id, desktopName: d.name },
            { columns: CLAIM_COLUMNS },
          ),
        'record',
      );
      return claimOf(r.rows[0]);
    },

    async move(order, move) {
      if (move === 'confirm') return;
      const d = desktop();
      await team().withClient((client) => callTeam(client, 'move_standing_order', { orderId: order.id, move, desktopId: d.id, desktopName: d.name }), 'record');
    },

    async approve(order, version, terms) {
      const digest = versionDigest(version);
      if (version.rows_digest !== null && version.rows_digest !== digest) {
        throw new AppError(
          'approval_mismatch',
          `The rows of standing order ${order.name} on this desktop are not the ones confirmed (their digest changed). Nothing was approved.`,
          'Refresh the list of standing orders and look at its rows again.',
        );
      }
      const d = desktop();
      return team().withClient(async (client) => {
        await callTeam(client, 'approve_standing_order', {
          orderId: order.id,
          version: version.version,
          rowsDigest: digest,
          ceilingKobo: terms.ceilingKobo,
          runs: terms.runs,
          until: terms.until,
          note: terms.note,
          desktopId: d.id,
          desktopName: d.name,
        });
        return (await readApproval(client, order, version)) as StandingApprovalView;
      }, 'approve');
    },

    approval: (order, version) => team().withClient((client) => readApproval(client, order, version), 'read'),
  };
}
