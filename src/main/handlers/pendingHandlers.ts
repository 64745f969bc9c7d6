import { pendingOperations } from '../../shared/contract/pending';
import { listPendingItems, pendingCounts, requeryDue, requeryNow, resolveByHand } from '../pending';
import type { HandlersOf } from './handlerTypes';

export const pendingHandlers: HandlersOf<typeof pendingOperations> = {
  'pending.list': (input, app) => listPendingItems(app, app.connection, input.includeSettled),
  'pending.count': (_input, app) => pendingCounts(app, app.connection),
  'pending.requeryNow': (input, app) => requeryNow(app, app.session(), input.id),
  'pending.requeryDue': (input, app) => requeryDue(app, app.session(), input.all),
  'pending.resolve': (input, app) => resolveByHand(app, app.connection, input),
};
