/** Pending purchases and the requery loop. */
export { countPendingItems, listPendingItems, pendingCounts, pendingItemView, requeryNow, requeryDue, resolveByHand } from './pendingItems';
export { createPendingScheduler, ensurePendingScheduler, TICK_MS, type PendingScheduler } from './pendingScheduler';
export { requeryPurchase } from './requeryPurchase';
export { createServiceClock, type ServiceClock } from './serviceClock';
export { firstRequeryDueMs, requeryBackoffMs, REQUERY_EARLIEST_MS } from './requeryBackoff';
