/**
 * The app contract: every operation the UI can ask for, in one table built from one file per
 * area. The Electron shell, the web shell, the CLI and tests all dispatch through it.
 */
import { appOperations } from './app';
import { bulkOperations } from './bulk';
import { catalogOperations } from './catalog';
import { costCentresOperations } from './costCentres';
import { dashboardOperations } from './dashboard';
import type { InputOf, OperationDef, OutputOf } from './define';
import { logsOperations } from './logs';
import { messagingOperations } from './messaging';
import { monthEndOperations } from './monthEnd';
import { pendingOperations } from './pending';
import { purchasesOperations } from './purchases';
import { reconcileOperations } from './reconcile';
import { reportsOperations } from './reports';
import { serviceCheckOperations } from './serviceCheck';
import { standingOperations } from './standing';
import { teamOperations } from './team';
import { teamRunOperations } from './teamRun';

export const operations = {
  ...appOperations,
  ...bulkOperations,
  ...messagingOperations,
  ...purchasesOperations,
  ...pendingOperations,
  ...reconcileOperations,
  ...logsOperations,
  ...catalogOperations,
  ...dashboardOperations,
  ...reportsOperations,
  ...costCentresOperations,
  ...monthEndOperations,
  ...serviceCheckOperations,
  ...teamOperations,
  ...teamRunOperations,
  ...standingOperations,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export type OperationInput<N extends OperationName> = InputOf<Operations[N]>;
export type OperationOutput<N extends OperationName> = OutputOf<Operations[N]>;

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

export function operationDef(name: OperationName): OperationDef {
  return operations[name] as OperationDef;
}

export type { AppErrorShape, CallResult } from './define';
export type { AppEvent, EventMap, EventName } from './events';
