/**
 * The log mirror's secondary indexes, by name, as migration 2 creates them (that step stays as it
 * was released; `test/unit/transactions/logStore.test.ts` holds these equal to what it made). A
 * first sync into an empty mirror writes its rows without the first two and builds them at its
 * end (src/main/transactions/logStore.ts), and a sync cut short rebuilds what is missing.
 */
export const LOG_ENTRY_INDEXES = {
  // Default order, every filter but search, and the totals, all from one covering index.
  log_entries_created:
    'CREATE INDEX IF NOT EXISTS log_entries_created ON log_entries (profile_id, created_at, id, status, type, network, amount_kobo, cost_kobo, commission_kobo);',
  log_entries_amount: 'CREATE INDEX IF NOT EXISTS log_entries_amount ON log_entries (profile_id, amount_kobo, id);',
  // Only the (few) PENDING rows: where an incremental sync must start re-reading.
  log_entries_pending: "CREATE INDEX IF NOT EXISTS log_entries_pending ON log_entries (profile_id, created_at) WHERE status = 'PENDING';",
} as const;
