/**
 * What a person is told when a standing order's occurrence ran, failed or waits (the
 * `standing.occurrence` event): one title and one sentence, the same in the window's notice and in
 * the operating system's notification (Electron's in the main process, the browser's in the web
 * shell), laid out from the event's typed fields. Plain text: each shell shows it as text.
 */
import type { EventMap } from './contract/events';
import { formatDay } from './localDates';

export type StandingOccurrenceEvent = EventMap['standing.occurrence'];

const OUTCOME_TITLE: Record<string, string> = {
  waiting: 'waits for you',
  skipped: 'was skipped',
  awaiting_approval: 'waits for approval',
  running: 'is being bought',
  paused: 'is paused',
  needs_attention: 'needs attention',
  interrupted: 'was interrupted',
  bought: 'was bought',
  failed: 'has rows not bought',
  cancelled: 'was cancelled',
  elsewhere: 'was run by another desktop',
};

/** How much the notice asks of the person: `problem` (failed, waits), `done`, or `info`. */
export function standingNoticeLevel(outcome: string): 'problem' | 'done' | 'info' {
  if (outcome === 'bought') return 'done';
  if (['waiting', 'failed', 'needs_attention', 'interrupted', 'awaiting_approval'].includes(outcome)) return 'problem';
  return 'info';
}

/** Whether the operating system is told too: when a run ended or waits, not when it starts buying (the window says that). */
export function tellsSystem(outcome: string): boolean {
  return outcome !== 'running';
}

/** The notice of an occurrence: "Staff data allowance, 25 Nov 2026, was bought" and the engine's sentence. */
export function standingNotice(e: StandingOccurrenceEvent): { title: string; body: string } {
  return {
    title: `${e.orderName}, ${formatDay(e.scheduledDay)}, ${OUTCOME_TITLE[e.outcome] ?? e.outcome}`,
    body: e.message,
  };
}
