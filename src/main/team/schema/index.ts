/**
 * Every step of the team workspace's PostgreSQL schema, in order (numbered on their own; the
 * SQLite migrations of `src/main/store/migrations/` are a separate list).
 */
import type { TeamMigration } from './teamMigration';
import { teamCoreMigration } from './001_team_core';
import { singlePurchasesAndAuditMigration } from './002_single_purchases_and_audit';
import { teamJobItemsMigration } from './003_team_job_items';
import { approvalBindsItemsMigration } from './004_approval_binds_items';
import { claimBindsRecipientMigration } from './005_claim_binds_recipient';
import { changesNotifyMigration } from './006_changes_notify';
import { membersOnlyAndCheckedTextMigration } from './007_members_only_and_checked_text';
import { standingOrdersMigration } from './008_standing_orders';
import { monthCloseMigration } from './009_month_close';

export type { TeamMigration } from './teamMigration';

export const TEAM_MIGRATIONS: TeamMigration[] = [
  teamCoreMigration,
  singlePurchasesAndAuditMigration,
  teamJobItemsMigration,
  approvalBindsItemsMigration,
  claimBindsRecipientMigration,
  changesNotifyMigration,
  membersOnlyAndCheckedTextMigration,
  standingOrdersMigration,
  monthCloseMigration,
  // (add one import and one entry per migration file, in number order)
];

export const TEAM_SCHEMA_VERSION = TEAM_MIGRATIONS[TEAM_MIGRATIONS.length - 1].version;
