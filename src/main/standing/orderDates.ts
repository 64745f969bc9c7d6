/**
 * The occurrences of an order across its versions: each confirmed version owns the days its rule
 * schedules from its `effectiveFrom` (the day it was confirmed, or its rule's start when later)
 * until the next version's. A changed order's next occurrence is the new version's; the earlier
 * ones stay the old version's, and a late run never moves a date (dates come from the rules only).
 */
import { shiftDay } from '../../shared/localDates';
import { nextOccurrences, occurrenceScheduledOn, occurrencesDue, type Occurrence, type WeekendMove } from './recurrence';

export interface DatedVersion {
  version: number;
  rule: string;
  weekend: WeekendMove;
  graceDays: number;
  effectiveFrom: string;
}

export interface VersionedOccurrence extends Occurrence {
  version: DatedVersion;
}

/** The scheduled days a version owns: from its effectiveFrom until the next version's (not included). */
function owns(versions: readonly DatedVersion[], i: number, scheduled: string): boolean {
  const next = versions[i + 1];
  return scheduled >= versions[i].effectiveFrom && (next === undefined || scheduled < next.effectiveFrom);
}

/** The occurrences due from `from` to `to` (Lagos days, both included), of the confirmed versions (oldest first), by due day. */
export function occurrencesBetween(versions: readonly DatedVersion[], from: string, to: string): VersionedOccurrence[] {
  const out: VersionedOccurrence[] = [];
  versions.forEach((v, i) => {
    for (const o of occurrencesDue(v.rule, v.weekend, from, to)) if (owns(versions, i, o.scheduled)) out.push({ ...o, version: v });
  });
  return out.sort((a, b) => a.due.localeCompare(b.due) || a.scheduled.localeCompare(b.scheduled));
}

/** The next `count` occurrences due on `from` or later. */
export function upcomingOccurrences(versions: readonly DatedVersion[], from: string, count: number): VersionedOccurrence[] {
  const out: VersionedOccurrence[] = [];
  versions.forEach((v, i) => {
    // Enough of each version's dates to find `count` of its own after `from`.
    for (const o of nextOccurrences(v.rule, v.weekend, from > v.effectiveFrom ? from : shiftDay(v.effectiveFrom, -2), count + 4)) {
      if (owns(versions, i, o.scheduled) && o.due >= from) out.push({ ...o, version: v });
    }
  });
  return out.sort((a, b) => a.due.localeCompare(b.due)).slice(0, count);
}

/** The occurrence a person names by its scheduled or its due day, when the order has one. */
export function occurrenceNamed(versions: readonly DatedVersion[], day: string): VersionedOccurrence | null {
  for (let i = versions.length - 1; i >= 0; i--) {
    const v = versions[i];
    const scheduled = occurrenceScheduledOn(v.rule, v.weekend, day);
    if (scheduled && owns(versions, i, day)) return { ...scheduled, version: v };
    // A day an occurrence was moved to (a Monday after a weekend): found by its due day.
    const moved = occurrencesDue(v.rule, v.weekend, day, day).find((o) => owns(versions, i, o.scheduled));
    if (moved) return { ...moved, version: v };
  }
  return null;
}
