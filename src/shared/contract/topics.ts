/**
 * What a `data.changed` event says changed, so the views that show it re-read
 * (`events.ts` pushes them, `readTopics.ts` says which reads show them). Imports nothing: every
 * area's operations declare what they change with these (`op(…, { invalidates })`), and the
 * events refer to the areas' types, so the topics sit below both and no import goes round.
 */

/** `connection` means everything: a view of one connection's data never stays on screen under another. */
export const DATA_TOPICS = [
  'connection',
  'balance',
  'mirror',
  'catalog',
  'jobs',
  /** The team workspace's status and policy (Settings → Team, the policy line of Approvals). */
  'team',
  'bulk.settings',
  'pending',
  'purchases',
  'phonebooks',
  'templates',
  'messages',
  'reconcile',
  /** Standing orders and their occurrences (issue 40). */
  'standing',
  /** Closed months and the ledger account map (Month-end, Settings → Account map). */
  'monthEnd',
] as const;
export type DataTopic = (typeof DATA_TOPICS)[number];

/** What a switch of connection changes: every view re-reads (`connection`), and these with it. */
export const CONNECTION_SWITCH_TOPICS = ['connection', 'balance', 'mirror', 'catalog'] as const satisfies readonly DataTopic[];

/**
 * What buying anything changes (an electricity token, a cable bouquet, a top-up, a bulk row): the purchase (receipts, Pending
 * page), the wallet, and the log entry mirrored by its reference (Dashboard, Transactions). A bulk
 * job's purchases are background work and say the same through `app.invalidate`.
 */
export const PURCHASE_CHANGES = ['purchases', 'pending', 'balance', 'mirror'] as const satisfies readonly DataTopic[];
