/**
 * One door per state machine (issue 39): the only SQL in src/ that writes a bulk item's state is
 * in `buying/itemMoves.ts`, and the only SQL that writes a bulk job's state is in
 * `buying/jobLifecycle.ts`, where every move is guarded by its state table. Any other module that
 * writes `state` of `bulk_items` or `bulk_jobs` fails here, naming the file and the statement.
 *
 * The sources are read with TypeScript's own parser, so SQL is found however it is written: a
 * string, a template over many lines (each `${…}` stands for anything: a SET list or a guard built
 * at run time counts as one that may write the state), or strings joined with `+`; an alias of the
 * table, a column named with its alias, in quotes or brackets, or in a row value `(a, state) = …`;
 * an upsert (`ON CONFLICT … DO UPDATE SET state`) or a `REPLACE INTO`, which writes a whole row.
 * A `state` read inside another column's expression (`CASE WHEN state = …`) is not a write. The
 * migrations (`store/migrations/`) are the database's history, applied once and never edited, and
 * tests may write any row they need: neither is read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOORS, normalized, stateWrites, stringsIn, type Table } from '../../support/sqlStateWrites';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p === path.join(SRC, 'main', 'store', 'migrations') ? [] : sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every statement of src/ that writes a state, with its file and table. */
function writesInSources(): { file: string; table: Table; sql: string }[] {
  return sourceFiles(SRC).flatMap((file) => {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    return stringsIn(fs.readFileSync(file, 'utf8'), file).flatMap((sql) => stateWrites(sql).map((table) => ({ file: rel, table, sql: normalized(sql).trim() })));
  });
}

describe('what counts as SQL that writes a state', () => {
  const found = (source: string) => stringsIn(source).flatMap((s) => stateWrites(s));

  it('finds it however it is written', () => {
    expect(found("db.prepare('UPDATE bulk_items SET state = ? WHERE job_id = ?')")).toEqual(['bulk_items']);
    expect(found('db.prepare(`UPDATE\n    bulk_items\n  SET reason = ?,\n      state =\n        ?\n  WHERE seq = ?`)')).toEqual(['bulk_items']);
    expect(found("db.prepare('UPDATE bulk_items AS b SET b.state = ? WHERE b.seq = ?')")).toEqual(['bulk_items']);
    expect(found('db.prepare(\'UPDATE bulk_items i SET "state" = ?\')')).toEqual(['bulk_items']);
    expect(found("db.prepare('update main.bulk_jobs set [STATE] = ?')")).toEqual(['bulk_jobs']);
    expect(found("db.prepare('UPDATE OR REPLACE `bulk_jobs` SET message = ?, (state, updated_at) = (?, ?)')")).toEqual(['bulk_jobs']);
    expect(found("db.prepare('UPDATE bulk_items ' + 'SET reason = ?, ' + \"state = 'queued'\")")).toEqual(['bulk_items']);
    expect(found('db.prepare(`UPDATE bulk_jobs SET /* when */ state -- the new one\n = ?`)')).toEqual(['bulk_jobs']);
    // A SET list or column built at run time may write the state.
    expect(found('db.prepare(`UPDATE bulk_items SET ${sets.join(", ")} WHERE job_id = ?`)')).toEqual(['bulk_items']);
    expect(found('db.prepare(`UPDATE bulk_jobs SET message = ?, ${column} = ?`)')).toEqual(['bulk_jobs']);
    // Whole rows, and upserts.
    expect(found("db.prepare('REPLACE INTO bulk_items (job_id, seq, state) VALUES (?, ?, ?)')")).toEqual(['bulk_items']);
    expect(found("db.prepare('INSERT OR REPLACE INTO bulk_jobs SELECT * FROM old_jobs')")).toEqual(['bulk_jobs']);
    expect(found("db.prepare('INSERT INTO bulk_items (job_id, seq) VALUES (?, ?) ON CONFLICT (job_id, seq) DO UPDATE SET state = excluded.state')")).toEqual(['bulk_items']);
  });

  it('does not take a read, another column, another table or a first write for one', () => {
    expect(found("db.prepare('SELECT state FROM bulk_items WHERE state = ?')")).toEqual([]);
    expect(found("db.prepare('UPDATE bulk_items SET cost_kobo = ? WHERE job_id = ? AND state = ?')")).toEqual([]);
    expect(found("db.prepare(`UPDATE bulk_items SET sent_ms = CASE WHEN state = 'sending' THEN sent_ms ELSE ? END, attempts = attempts + (state <> 'sending')`)")).toEqual([]);
    expect(found("db.prepare('UPDATE bulk_items SET state_note = ?, reason = ?')")).toEqual([]);
    expect(found("db.prepare('UPDATE bulk_items_archive SET state = ?')")).toEqual([]);
    expect(found("db.prepare('UPDATE purchases SET state = ?')")).toEqual([]);
    expect(found("db.prepare('INSERT INTO bulk_items (job_id, seq, state) VALUES (?, ?, ?)')")).toEqual([]);
    expect(found("db.prepare('UPDATE bulk_jobs SET message = ? WHERE state = ?')")).toEqual([]);
  });
});

describe('one door per state machine', () => {
  const writes = writesInSources();

  it("an item's state is written only by buying/itemMoves.ts, a job's only by buying/jobLifecycle.ts", () => {
    const elsewhere = writes.filter((w) => w.file !== DOORS[w.table]).map((w) => `${w.file} writes ${w.table}.state: ${w.sql}`);
    expect(elsewhere).toEqual([]);
  });

  it('finds the writes the doors make (the reading works)', () => {
    const count = (table: Table) => writes.filter((w) => w.table === table && w.file === DOORS[table]).length;
    // markSending, sendAsPurchase, accept, recoverSending, sentElsewhere, outcome, claimFromLog, the named moves and the follow of a purchase.
    expect(count('bulk_items')).toBeGreaterThanOrEqual(9);
    // Every move of the job table, the confirming write and the run's starts, back to approval.
    expect(count('bulk_jobs')).toBeGreaterThanOrEqual(5);
  });

  it('the team workspace is handed the moves it makes, never the store', () => {
    const team = sourceFiles(path.join(SRC, 'main', 'team'));
    const reaching = team.flatMap((file) => {
      const source = fs.readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file).split(path.sep).join('/');
      const imports = [...source.matchAll(/from '\.\.\/bulk\/(\w+)'/g)].map((m) => m[1]).filter((m) => ['jobReads', 'itemMoves', 'jobLifecycle', 'jobStore'].includes(m));
      const parts = [...source.matchAll(/\.(reads|moves|lifecycle|store)\.\w+\(/g)].map((m) => m[0]);
      return [...imports.map((m) => `${rel} imports bulk/${m}`), ...parts.map((p) => `${rel} calls ${p}…`)];
    });
    expect(reaching).toEqual([]);
    // What it is handed instead: the team's jobs (buying/teamJobs.ts), as the gate passes them.
    expect(fs.readFileSync(path.join(SRC, 'main', 'team', 'bulkApproval.ts'), 'utf8')).toContain("import type { TeamJobs } from '../buying/teamJobs';");
  });
});
