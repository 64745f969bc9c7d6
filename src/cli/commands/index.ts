/** Every `vendesk` command; each area adds its own file and one entry here. */
import type { CliCommand } from '../cliCommand';
import { balanceCommand, sandboxCommand, webCommand } from './appCommands';
import { BULK_COMMANDS } from './bulkCommands';
import { completionCommandOf } from './completionCommand';
import { COST_CENTRE_COMMANDS } from './costCentreCommands';
import { doctorCommand } from './doctorCommand';
import { LOGS_COMMANDS } from './logsCommands';
import { MESSAGING_COMMANDS } from './messagingCommands';
import { MONTH_END_COMMANDS } from './monthEndCommands';
import { PURCHASE_COMMANDS } from './purchaseCommands';
import { RECONCILE_COMMANDS } from './reconcileCommands';
import { STANDING_COMMANDS } from './standingCommands';
import { TEAM_COMMANDS } from './teamCommands';
import { TEAM_RUN_COMMANDS } from './teamRunCommands';

export const COMMANDS: CliCommand[] = [
  balanceCommand,
  doctorCommand,
  sandboxCommand,
  webCommand,
  ...MESSAGING_COMMANDS,
  ...BULK_COMMANDS,
  ...STANDING_COMMANDS,
  ...TEAM_RUN_COMMANDS,
  ...PURCHASE_COMMANDS,
  ...RECONCILE_COMMANDS,
  ...COST_CENTRE_COMMANDS,
  ...MONTH_END_COMMANDS,
  ...LOGS_COMMANDS,
  ...TEAM_COMMANDS,
  completionCommandOf(() => COMMANDS),
];
