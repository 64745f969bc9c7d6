/**
 * Which Lagos days the mirror holds, from the UTC dates a sync read and when (logCoverage.ts): a
 * Lagos day overlaps two UTC dates (its first hour is the UTC date before), so a day is read only
 * when both are read through its end; a date read while it was still growing covers it up to
 * then; today counts once read since it began; days after today have not come; a read from the
 * log's start makes the days before its oldest entry empty; each connection keeps its own days;
 * and a plain sync starts at the first day no sync read.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstUnreadDay, mirrorCoverage, recordPartRead } from '../../../src/main/transactions/logCoverage';
import { openDatabase, type Db } from '../../../src/main/store/database';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  for (const p of ['p', 'q']) db.prepare('INSERT INTO sync_checkpoints (profile_id) VALUES (?)').run(p);
});
afterEach(() => db.close());

const at = (iso: string) => Date.parse(iso);
/** Now, on the service's clock: 29 Nov 2026, 10:00 in Lagos. */
const NOW = at('2026-11-29T09:00:00Z');
const coverage = (from?: string, to?: string, profile = 'p') => mirrorCoverage(db, profile, { from, to }, NOW);

describe('a Lagos day is read when both UTC dates it overlaps are read through its end', () => {
  it('a sync of the UTC days covering a Lagos day, read after it ended, makes it read; its neighbours are not', () => {
    // `vendesk sync --from 2026-11-20 --to 2026-11-20` asks for the UTC dates 19 and 20 November.
    recordPartRead(db, 'p', { startdate: '2026-11-19', enddate: '2026-11-20' }, at('2026-11-21T01:30:00Z'), null);
    expect(coverage('2026-11-20', '2026-11-20')).toMatchObject({ complete: true, missing: [], read: null, syncCommand: null });
    expect(coverage('2026-11-18', '2026-11-22')).toMatchObject({
      complete: false,
      missing: [
        { from: '2026-11-18', to: '2026-11-19', days: 2 },
        { from: '2026-11-21', to: '2026-11-22', days: 2 },
      ],
      read: { from: '2026-11-18', to: '2026-11-22' },
      syncCommand: 'vendesk sync --from 2026-11-18 --to 2026-11-22',
    });
    // The other connection read nothing.
    expect(coverage('2026-11-20', '2026-11-20', 'q').missing).toEqual([{ from: '2026-11-20', to: '2026-11-20', days: 1 }]);
  });

  it('without the UTC date before, the Lagos day’s first hour (23:00–24:00 UTC) is not read, so the day is not', () => {
    recordPartRead(db, 'p', { startdate: '2026-11-20', enddate: '2026-11-20' }, at('2026-11-22T00:00:00Z'), null);
    expect(coverage('2026-11-20', '2026-11-20').missing).toEqual([{ from: '2026-11-20', to: '2026-11-20', days: 1 }]);
    recordPartRead(db, 'p', { startdate: '2026-11-19', enddate: '2026-11-19' }, at('2026-11-22T00:00:00Z'), null);
    expect(coverage('2026-11-20', '2026-11-20').complete).toBe(true);
  });

  it('a date read while it was still growing covers it up to then: a later read after it ended completes it', () => {
    // Read at 18:00 UTC on the 20th: the Lagos 20th runs to 23:00 UTC.
    recordPartRead(db, 'p', { startdate: '2026-11-19', enddate: '2026-11-20' }, at('2026-11-20T18:00:00Z'), null);
    expect(coverage('2026-11-20', '2026-11-20').complete).toBe(false);
    // Read again after 23:00 UTC, still on the 20th (UTC): the Lagos day ended, so it is read.
    recordPartRead(db, 'p', { startdate: '2026-11-20', enddate: null }, at('2026-11-20T23:10:00Z'), null);
    expect(coverage('2026-11-20', '2026-11-20').complete).toBe(true);
    // An older read never takes a later one back.
    recordPartRead(db, 'p', { startdate: '2026-11-19', enddate: '2026-11-20' }, at('2026-11-20T10:00:00Z'), null);
    expect(coverage('2026-11-20', '2026-11-20').complete).toBe(true);
  });
});

describe('today and the days after it', () => {
  it('today counts once read since it began, up to that read; never read, it is missing', () => {
    expect(coverage('2026-11-29', '2026-11-29').missing).toEqual([{ from: '2026-11-29', to: '2026-11-29', days: 1 }]);
    recordPartRead(db, 'p', { startdate: '2026-11-28', enddate: null }, at('2026-11-29T07:15:00Z'), null);
    expect(coverage('2026-11-29', '2026-11-29')).toMatchObject({ complete: true, todayReadThrough: '2026-11-29T07:15:00.000Z', read: null, notYet: null });
    // Read only before today began (22:30 UTC on the 28th is 23:30 in Lagos): today is missing.
    db.prepare('DELETE FROM log_days_read').run();
    recordPartRead(db, 'p', { startdate: '2026-11-27', enddate: null }, at('2026-11-28T22:30:00Z'), null);
    expect(coverage('2026-11-29', '2026-11-29').complete).toBe(false);
  });

  it('days after today have not come: nothing is missing from them and nothing is read for them', () => {
    expect(coverage('2026-11-30', '2026-12-05')).toMatchObject({
      complete: true,
      missing: [],
      read: null,
      todayReadThrough: null,
      notYet: { from: '2026-11-30', to: '2026-12-05', days: 6 },
    });
    // Across today: the days up to today are asked about, the rest has not come.
    expect(coverage('2026-11-27', '2026-12-02')).toMatchObject({
      missing: [{ from: '2026-11-27', to: '2026-11-29', days: 3 }],
      notYet: { from: '2026-11-30', to: '2026-12-02', days: 3 },
    });
  });
});

describe('the log read from its start', () => {
  it('makes the days before its oldest entry read, and a listing of the whole log complete', () => {
    expect(coverage()).toMatchObject({ complete: false, wholeLogUnread: true, read: {}, syncCommand: 'vendesk sync' });
    expect(firstUnreadDay(db, 'p')).toBeNull();
    // A first sync in two parts: the closed days, then today.
    recordPartRead(db, 'p', { startdate: null, enddate: '2026-11-28' }, at('2026-11-29T08:00:00Z'), '2026-09-01T10:00:00.000Z');
    recordPartRead(db, 'p', { startdate: '2026-11-29', enddate: null }, at('2026-11-29T08:01:00Z'), null);
    expect(coverage()).toMatchObject({ from: null, complete: true, wholeLogUnread: false, todayReadThrough: '2026-11-29T08:01:00.000Z' });
    expect(coverage('2020-01-01', '2026-11-28')).toMatchObject({ complete: true, missing: [] });
    // A plain sync starts at today, the first date not read through its end.
    expect(firstUnreadDay(db, 'p')).toBe('2026-11-29');
    // A gap (a date no sync read completely) moves it back.
    db.prepare("UPDATE log_days_read SET read_through = '2026-10-10T12:00:00.000Z' WHERE day = '2026-10-10'").run();
    expect(firstUnreadDay(db, 'p')).toBe('2026-10-10');
  });

  it('of a log with nothing in it: every day up to the read is read', () => {
    recordPartRead(db, 'p', { startdate: null, enddate: null }, at('2026-11-29T08:00:00Z'), null);
    expect(coverage('2026-01-01', '2026-11-29')).toMatchObject({ complete: true, todayReadThrough: '2026-11-29T08:00:00.000Z' });
    expect(firstUnreadDay(db, 'p')).toBe('2026-11-29');
  });
});
