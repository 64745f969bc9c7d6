/**
 * Every schema step, in order. Each number is given to one piece of work, so work done side by
 * side never collides (10 was given out and not used): 1 core, 2 log mirror and sync, 3 bulk
 * jobs, 4 reconciliation, 5 messaging, 6 pending purchases and requery, 7 bulk electricity and
 * cable items, 8 connection scope, 9 bulk figures, 11 the filter choices of the log mirror, 12 the
 * concurrent sync's plan and the changes the mirror's position index follows, 13 where a messaging
 * charge figure comes from, 14 single airtime and data purchases (one-item bulk jobs), 15 the
 * name the service gave for a bulk item's meter or smartcard, 16 local bulk jobs sent for approval
 * in the team workspace, 17 team single purchases, 18 the amount a refund gave back, 19 the phone and
 * name of a bulk file's invalid rows, 20 the state columns' known states, 21 settled purchases keep
 * their state, 22 jobs awaiting approval, 23 single electricity and cable purchases as jobs, 24 one
 * table of approvals, 26 what the log mirror covers (the UTC dates read completely) and the last
 * failed sync, 30 items and jobs move only along their state tables, 31–34 standing orders, 35 jobs
 * of personalised messages (issue 40), 36 cost centres (on each purchase, the recipients list,
 * changes, every log entry's), 38–39 month-end (closed months, the ledger account map).
 */
import type { Migration } from './migration';
import { coreMigration } from './001_core';
import { logMirrorMigration } from './002_log_mirror';
import { bulkMigration } from './003_bulk';
import { reconcileMigration } from './004_reconcile';
import { messagingMigration } from './005_messaging';
import { pendingMigration } from './006_pending';
import { bulkAccountsMigration } from './007_bulk_accounts';
import { connectionScopeMigration } from './008_connection_scope';
import { bulkFiguresMigration } from './009_bulk_figures';
import { logFacetsMigration } from './011_log_facets';
import { syncPlanAndPositionsMigration } from './012_sync_plan_and_positions';
import { messagingChargesMigration } from './013_messaging_charges';
import { singleTopUpsMigration } from './014_single_top_ups';
import { bulkAccountNamesMigration } from './015_bulk_account_names';
import { teamJobLinksMigration } from './016_team_job_links';
import { teamSinglePurchasesMigration } from './017_team_single_purchases';
import { refundedAmountsMigration } from './018_refunded_amounts';
import { bulkInvalidRowPeopleMigration } from './019_bulk_invalid_row_people';
import { stateChecksMigration } from './020_state_checks';
import { finalPurchasesStayMigration } from './021_final_purchases_stay';
import { jobsAwaitApprovalMigration } from './022_jobs_await_approval';
import { singlePurchasesAreJobsMigration } from './023_single_purchases_are_jobs';
import { oneTableOfApprovalsMigration } from './024_one_table_of_approvals';
import { logCoverageMigration } from './026_log_coverage';
import { stateMovesMigration } from './030_state_moves';
import { standingOrdersMigration } from './031_standing_orders';
import { logDayTotalsMigration } from './032_log_day_totals';
import { personalisedMessagesMigration } from './035_personalised_messages';
import { costCentresMigration } from './036_cost_centres';
import { monthClosesMigration } from './038_month_closes';
import { accountMapMigration } from './039_account_map';
import { logDayRecordsMigration } from './040_log_day_records';

export const MIGRATIONS: Migration[] = [
  coreMigration,
  logMirrorMigration,
  bulkMigration,
  reconcileMigration,
  messagingMigration,
  pendingMigration,
  bulkAccountsMigration,
  connectionScopeMigration,
  bulkFiguresMigration,
  logFacetsMigration,
  syncPlanAndPositionsMigration,
  messagingChargesMigration,
  singleTopUpsMigration,
  bulkAccountNamesMigration,
  teamJobLinksMigration,
  teamSinglePurchasesMigration,
  refundedAmountsMigration,
  bulkInvalidRowPeopleMigration,
  stateChecksMigration,
  finalPurchasesStayMigration,
  jobsAwaitApprovalMigration,
  singlePurchasesAreJobsMigration,
  oneTableOfApprovalsMigration,
  logCoverageMigration,
  stateMovesMigration,
  standingOrdersMigration,
  logDayTotalsMigration,
  personalisedMessagesMigration,
  costCentresMigration,
  monthClosesMigration,
  accountMapMigration,
  logDayRecordsMigration,
  // (add one import and one entry per migration file, in number order)
];
