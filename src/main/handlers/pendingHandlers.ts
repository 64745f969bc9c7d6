import { pendingOperations } from '../../shared/contract/pending';
import { listPendingItems, pendingCounts, requeryDue, requeryNow, resolveByHand } from '../pending';
import type { HandlersOf } from './handlerTypes';

export const pendingHandlers: HandlersOf<typeof pendingOperations> = {
  'pending.list': (input, app) => listPendingItems(app, input.includeSettled),
  'pending.count': (_input, app) => pendingCounts(app),
  'pending.requeryNow': (input, app) => requeryNow(app, input.id),
  'pending.requeryDue': (input, app) => requeryDue(app, input.all),
  'pending.resolve': (input, app) => resolveByHand(app, input),
};
