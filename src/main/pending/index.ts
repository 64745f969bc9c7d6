/** Pending purchases and the requery loop. */
export { countPendingItems, listPendingItems, pendingCounts, pendingItemView, requeryNow, requeryDue, requeryOwnTopUp, resolveByHand } from './pendingItems';
export { createPendingScheduler, TICK_MS, type PendingScheduler } from './pendingScheduler';
export { createServiceClock, type ServiceClock } from '../api/serviceClock';
export { firstRequeryDueMs, requeryBackoffMs, REQUERY_EARLIEST_MS } from '../api/requeryBackoff';
