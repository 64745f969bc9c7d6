/**
 * The one handler table every shell dispatches through: one file per area, combined here. Each
 * area's module (and the services, spreadsheet writer and database driver it brings) is loaded
 * the first time one of its operations is called, so a command or window that never asks for an
 * area does not pay for loading it (`vendesk balance` loads none of bulk, reconcile or team).
 */
import type { Operations } from '../../shared/contract';
import { appOperations } from '../../shared/contract/app';
import { bulkOperations } from '../../shared/contract/bulk';
import { catalogOperations } from '../../shared/contract/catalog';
import { dashboardOperations } from '../../shared/contract/dashboard';
import type { OperationTable } from '../../shared/contract/define';
import { logsOperations } from '../../shared/contract/logs';
import { messagingOperations } from '../../shared/contract/messaging';
import { pendingOperations } from '../../shared/contract/pending';
import { purchasesOperations } from '../../shared/contract/purchases';
import { reconcileOperations } from '../../shared/contract/reconcile';
import { reportsOperations } from '../../shared/contract/reports';
import { serviceCheckOperations } from '../../shared/contract/serviceCheck';
import { teamOperations } from '../../shared/contract/team';
import { teamRunOperations } from '../../shared/contract/teamRun';
import type { HandlersOf } from './handlerTypes';

type AnyHandler = (input: unknown, ...rest: unknown[]) => unknown;

/** An area's handlers, its module imported when the first of its operations is called. */
function onFirstCall<T extends OperationTable>(area: T, load: () => Promise<HandlersOf<T>>): HandlersOf<T> {
  let loaded: Promise<HandlersOf<T>> | null = null;
  const table: Record<string, AnyHandler> = {};
  for (const name of Object.keys(area)) {
    table[name] = async (...args) => {
      loaded ??= load();
      return ((await loaded) as unknown as Record<string, AnyHandler>)[name](...args);
    };
  }
  return table as unknown as HandlersOf<T>;
}

export const handlers: HandlersOf<Operations> = {
  ...onFirstCall(appOperations, async () => (await import('./appHandlers')).appHandlers),
  ...onFirstCall(bulkOperations, async () => (await import('./bulkHandlers')).bulkHandlers),
  ...onFirstCall(messagingOperations, async () => (await import('./messagingHandlers')).messagingHandlers),
  ...onFirstCall(purchasesOperations, async () => (await import('./purchasesHandlers')).purchasesHandlers),
  ...onFirstCall(pendingOperations, async () => (await import('./pendingHandlers')).pendingHandlers),
  ...onFirstCall(reconcileOperations, async () => (await import('./reconcileHandlers')).reconcileHandlers),
  ...onFirstCall(logsOperations, async () => (await import('./logsHandlers')).logsHandlers),
  ...onFirstCall(catalogOperations, async () => (await import('./catalogHandlers')).catalogHandlers),
  ...onFirstCall(dashboardOperations, async () => (await import('./dashboardHandlers')).dashboardHandlers),
  ...onFirstCall(reportsOperations, async () => (await import('./reportsHandlers')).reportsHandlers),
  ...onFirstCall(serviceCheckOperations, async () => (await import('./serviceCheckHandlers')).serviceCheckHandlers),
  ...onFirstCall(teamOperations, async () => (await import('./teamHandlers')).teamHandlers),
  ...onFirstCall(teamRunOperations, async () => (await import('./teamRunHandlers')).teamRunHandlers),
};
