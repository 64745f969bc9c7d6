/**
 * A row of a team job that another team desktop claimed (and so sent, or was about to send) is
 * never sent from here. When this desktop reaches it, the item is marked uncertain and settled at
 * once from the service's log, searched around when the other desktop claimed it: found, it takes
 * that entry's outcome and reference; not found (still on its way, or that desktop stopped before
 * sending it), it stays uncertain with a reason that says so — resuming the job on that desktop
 * sends it, or the user marks it. Electricity and cable rows (bought as purchases, not matched by
 * phone in the log) stay uncertain for the user.
 */
import type { App } from '../app';
import { createServiceClock } from '../api/serviceClock';
import { logEntriesForPhone } from '../bulk/logLookup';
import type { ItemRow, JobRow, JobStore } from '../bulk/jobStore';
import { isVendingKind } from '../bulk/jobStates';
import { itemStateOfEntry, matchUncertainItem } from '../bulk/matchUncertainItem';

export interface OtherClaim {
  desktopId: string;
  claimedBy: string;
  /** When the other desktop claimed the row (epoch ms). */
  claimedMs: number;
}

export async function settleSentElsewhere(app: App, store: JobStore, job: JobRow, item: ItemRow, claim: OtherClaim): Promise<void> {
  const by = `another team desktop (${claim.claimedBy}, desktop ${claim.desktopId}) at ${new Date(claim.claimedMs).toISOString()}`;
  store.transition(job.id, [item.seq], 'uncertain', { reason: `Row ${item.row_number} of this team job was sent by ${by}; vendesk settles it from the service log and never sends it again.` }, ['sending']);
  // The log is searched around when it was really sent (the claim), not when this desktop got to it.
  app.db.prepare('UPDATE bulk_items SET sent_ms = ? WHERE job_id = ? AND seq = ?').run(claim.claimedMs, job.id, item.seq);
  if (isVendingKind(job.kind)) return;
  const current = store.item(job.id, item.seq);
  if (!current || current.state !== 'uncertain') return;
  let entries;
  try {
    entries = await logEntriesForPhone(app.client(), job.kind, item.phone);
  } catch {
    return; // the runner's own checks of uncertain items read the log again
  }
  const match = matchUncertainItem(current, job.kind, entries, (reference) => store.isReferenceClaimed(reference));
  for (const entry of match.byReference ? [match.byReference] : match.candidates) {
    if (store.claimFromLog(job.id, item.seq, entry.transactionId, itemStateOfEntry(entry), 'log: sent by another team desktop', entry.costKobo)) return;
  }
  store.transition(
    job.id,
    [item.seq],
    'uncertain',
    {
      reason: `Row ${item.row_number} of this team job was claimed by ${by}, but is not in the service log (${Math.round((app.service(createServiceClock).now() - claim.claimedMs) / 1000)} s later). It is never sent from here: resume the job on that desktop, or check with the service and mark it bought or not bought.`,
    },
    ['uncertain'],
  );
}
