/** Words and colours for standing orders and their occurrences, as a finance officer reads them. */
import type { OccurrenceOutcome, StandingOrderState, WeekendMove } from '../../../../shared/contract/standing';

export const ORDER_STATE_LABEL: Record<StandingOrderState, string> = { draft: 'Not confirmed', active: 'Active', paused: 'Paused', ended: 'Ended' };
export const ORDER_STATE_COLOR: Record<StandingOrderState, string> = { draft: 'gray', active: 'teal', paused: 'yellow', ended: 'gray' };

export const OUTCOME_LABEL: Record<OccurrenceOutcome, string> = {
  waiting: 'Waiting',
  skipped: 'Skipped',
  awaiting_approval: 'Waiting for approval',
  running: 'Buying…',
  paused: 'Paused',
  needs_attention: 'Needs attention',
  interrupted: 'Interrupted',
  bought: 'Bought',
  failed: 'Rows not bought',
  cancelled: 'Cancelled',
  elsewhere: 'Run by another desktop',
};
export const OUTCOME_COLOR: Record<OccurrenceOutcome, string> = {
  waiting: 'orange',
  skipped: 'gray',
  awaiting_approval: 'violet',
  running: 'blue',
  paused: 'yellow',
  needs_attention: 'orange',
  interrupted: 'orange',
  bought: 'green',
  failed: 'red',
  cancelled: 'gray',
  elsewhere: 'gray',
};

/** An outcome a person did not see coming: named in a notice of its colour. */
export function outcomeLabel(outcome: string): string {
  return (OUTCOME_LABEL as Record<string, string>)[outcome] ?? outcome;
}
export function outcomeColor(outcome: string): string {
  return (OUTCOME_COLOR as Record<string, string>)[outcome] ?? 'gray';
}

/** What happens to a run whose day is a Saturday or Sunday. */
export const WEEKEND_LABEL: Record<WeekendMove, string> = {
  next: 'A weekend day moves to the Monday after',
  previous: 'A weekend day moves to the Friday before',
  none: 'Bought on weekend days too',
};
