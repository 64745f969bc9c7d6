/**
 * What to do, said in the command line's words. The services and the contract say it as the
 * window does ("Settings → Connection", "the Pending page"); the CLI prints the same errors and
 * messages, so here — in one place — an error's hint is replaced by its command-line form by the
 * error's code, and the window's places named inside a message become the command that does the
 * same. Messages themselves are never rewritten otherwise.
 */
import type { AppErrorShape } from '../shared/contract/define';
import type { AwaitingApprovalDetails } from '../shared/contract/team';
import type { ErrorCode } from '../shared/errorCodes';

type Hint = string | ((error: AppErrorShape) => string | undefined);

/** The command-line hint of each error code whose hint names a place in the window. */
export const CLI_HINTS: Readonly<Partial<Record<ErrorCode, Hint>>> = {
  service_credentials: 'Check the token: run `vendesk --profile NAME balance` with a saved profile, or give a new one in VENDESK_TOKEN with --base-url.',
  service_fix_input: (e) =>
    e.hint?.includes('Catalog page')
      ? 'Nothing was charged. Correct the phone number, product code, network or amount (see `vendesk catalog airtime|data|cable|electricity`), then try again.'
      : undefined,
  service_do_not_resend: 'Do not send it again. Wait for the first one to finish and check its outcome with `vendesk sync` and `vendesk logs --search NUMBER`.',
  service_retry_later: (e) =>
    e.hint?.includes('in Settings') ? 'Check the internet connection and the service address (--base-url, or the --profile in use), then try again.' : undefined,
  duplicate_pending: 'Wait until it is settled (`vendesk pending`, `vendesk requery`), then buy again if it failed.',
  purchase_not_found: 'List the purchases of this connection with `vendesk purchases`.',
  other_connection: 'Run the command with --profile NAME (or --base-url) of the connection it was made on.',
  job_not_found: 'List the bulk jobs of this connection with `vendesk bulk list`.',
  job_other_connection: 'Run the command with --profile NAME (or the same --base-url) of the connection the job was prepared on.',
  job_not_draft: 'Follow it with `vendesk bulk status JOB_ID`.',
  settle_on_pending_page: 'Settle it with `vendesk pending` and `vendesk requery` (check with support first); the job shows the outcome.',
  profile_not_found: (e) =>
    e.hint?.startsWith('Name one of') ? e.hint.replace('Name one of', 'Give --profile one of') : 'Give --profile the name or id of a saved connection profile.',
  profile_ambiguous: (e) => e.hint?.replace('Name one of', 'Give --profile the id of one of'),
  sync_cancelled: 'Run `vendesk sync` again; it carries on from the last page saved.',
  cancelled: (e) => (e.hint?.startsWith('Press Sync') ? 'Run `vendesk sync` again; it carries on from the last page saved.' : undefined),
  sync_failed: 'Run `vendesk sync` again; it continues from the last page saved.',
  recent_duplicate: 'Add --repeat to buy it again, only if another purchase is wanted.',
  purchase_in_progress: 'Wait for it to finish: `vendesk purchases` lists it.',
  run_not_found: 'List the runs of this connection with `vendesk reconcile runs`.',
  items_not_found: 'List the items of a run with `vendesk reconcile items RUN_ID --category CATEGORY`.',
  range_needed: 'Give the range with --from YYYY-MM-DD and --to YYYY-MM-DD.',
  days_unread: (e) => {
    const command = (e.details as { syncCommand?: string | null } | undefined)?.syncCommand;
    return command ? `Run \`${command}\`${e.message.includes('failed') ? ' once the service answers' : ''}, then run this command again.` : undefined;
  },
  token_missing: (e) =>
    e.hint?.startsWith('Open Settings') ? 'Give the token in VENDESK_TOKEN (with --base-url), or enter it for this profile in the window (Settings).' : undefined,
  unsafe_address: "Use --base-url with a safe address, or correct the profile's address in the window (Settings).",
  awaiting_approval: (e) => {
    const d = e.details as AwaitingApprovalDetails | undefined;
    if (!d?.teamJobId) return undefined;
    const then =
      d.next === 'bulk'
        ? `resume it here with \`vendesk bulk resume ${d.jobId}\``
        : d.next === 'adopt'
          ? `run it with \`vendesk bulk adopt ${d.teamJobId}\``
          : `buy it with \`vendesk purchases resume ${d.teamJobId}\` (or ask for the same purchase again)`;
    return `An approver runs \`vendesk approve ${d.teamJobId}\` (or approves it in the window); then ${then}.`;
  },
  internal: 'Try again. If it keeps happening, send the command, its output and the time to support.',
};

/** The window's places named inside messages, and the command that does the same. */
const PLACES: readonly (readonly [string, string])[] = [
  ['(Purchases → Limits for bulk jobs)', '(`vendesk bulk caps`)'],
  ['(Transactions → Sync)', '(`vendesk sync`)'],
  ['(see the Pending page)', '(see `vendesk pending`)'],
  ['(see the purchase on the Pending page)', '(see `vendesk pending`)'],
  ['(Pending page)', '(`vendesk pending`)'],
  ['resolve it by hand on the Pending page', 'resolve it by hand with `vendesk pending resolve ID`'],
  ['resolve it on the Pending page', 'resolve it with `vendesk pending resolve ID`'],
  ['shows the result here and on the Pending page', 'shows the result in `vendesk pending` and `vendesk receipt ID`'],
  ['the wallet and the Transactions page', 'the wallet (`vendesk balance`) and the log (`vendesk sync`, then `vendesk logs`)'],
  ['(Catalog page)', '(`vendesk catalog cable`)'],
  ['(use the values of the Catalog page)', '(see `vendesk catalog`)'],
  ['Settings → Connection profiles', 'the profiles saved in the window (use one with --profile NAME)'],
  ['check the token in Settings → Connection', 'check the token (VENDESK_TOKEN with --base-url, or the --profile in use)'],
];

/** A message or hint with the window's places named as commands. */
export function cliText(text: string): string;
export function cliText(text: string | null): string | null;
export function cliText(text: string | null): string | null {
  if (text === null) return null;
  let out = text;
  for (const [window, cli] of PLACES) out = out.split(window).join(cli);
  return out;
}

/** What the CLI prints for an error: its message, and the hint in the command line's words. */
export function cliError(error: AppErrorShape): { code: string; message: string; hint?: string } {
  const rule = CLI_HINTS[error.code];
  const hint = (typeof rule === 'function' ? rule(error) : rule) ?? error.hint;
  return { code: error.code, message: cliText(error.message), ...(hint ? { hint: cliText(hint) } : {}) };
}
