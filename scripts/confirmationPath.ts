/**
 * `npm run trace:confirm`: follows a bulk job's confirmation through the code, as it runs, from
 * the `bulk.confirm` handler to the first purchase request (the service client's
 * `purchaseAirtime`), and prints which files it passes through and how often it comes back to
 * one it had left. Issue 27's measure of how straight that path is; docs/architecture.md quotes it.
 *
 * How: a worker thread debugs this process through the inspector (scripts/codePathWorker.mjs) and
 * steps through every statement of vendesk's own code (libraries, Node, the sandbox and test
 * helpers are stepped over). At each step the innermost frame in `src/` is where the path is; a
 * new file after another is a visit. A return is the path coming back to a file it had already
 * left by calling into it again (the issue's "comes back to one already left": the job going
 * back into the store, say); a caller taking back control when its callee is done is not one.
 * Every change of file, those included, is printed too.
 * The job is a two-row airtime job on the embedded sandbox, confirmed through the same dispatch
 * the windows and the CLI use.
 *
 * Two counts: all of `src/`, and the job's own code (without the service client `src/main/api/`,
 * the composition root's accessors in `src/main/app.ts`, redaction and `src/shared/`, which every
 * path passes through alike). `--json` prints one JSON document.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { startTestApp } from '../test/support/testApp';
import { createBulkService } from '../src/main/buying/bulkService';

export interface Frame {
  file: string;
  fn: string;
}

export interface PathCount {
  files: string[];
  /** Calls into a file the path had already left (a caller taking back control is not one). */
  returns: number;
  returnsByFile: Record<string, number>;
  /** Every change of file, each call's way back to its caller included. */
  switches: number;
  path: string[];
}

const ROOT = path.resolve(__dirname, '..');
/** What every path passes through alike, left out of the own-code count. */
export const SHARED_PLUMBING = /^src\/main\/api\/|^src\/shared\/|^src\/main\/app\.ts$|^src\/main\/redact/;

/**
 * The path through the files of `steps` from the handler on, counting only files `keep` accepts.
 * A step whose stack (of kept files) is deeper than the step before entered a function by a call;
 * any other change of file is a way back (a return, or an async function going on after an await).
 */
export function countPath(steps: Frame[][], keep: (file: string) => boolean = () => true, from = 'src/main/handlers/bulkHandlers.ts'): PathCount {
  const visits: (Frame & { call: boolean })[] = [];
  let started = false;
  let depth = 0;
  for (const frames of steps) {
    if (!started && !frames.some((f) => f.file === from)) continue;
    started = true;
    const kept = frames.filter((f) => keep(f.file));
    const top = kept[0];
    if (top && visits[visits.length - 1]?.file !== top.file) visits.push({ ...top, call: kept.length > depth });
    depth = kept.length;
  }
  const seen = new Set<string>();
  const returnsByFile: Record<string, number> = {};
  let returns = 0;
  let switches = 0;
  for (const v of visits) {
    if (seen.has(v.file)) {
      switches++;
      if (v.call) {
        returns++;
        returnsByFile[v.file] = (returnsByFile[v.file] ?? 0) + 1;
      }
    }
    seen.add(v.file);
  }
  return {
    files: [...seen],
    returns,
    returnsByFile,
    switches,
    path: visits.map((v) => `${v.call ? '' : '↩ '}${path.basename(v.file, '.ts')}:${v.fn || '(anonymous)'}`),
  };
}

/**
 * Runs `action` (the operation whose path is measured) while a worker steps through it, and
 * answers the steps up to the first purchase request. Anything before it, outside the stepping,
 * is set up by the caller.
 */
export async function stepThrough(action: () => Promise<unknown>): Promise<Frame[][]> {
  const worker = new Worker(path.join(__dirname, 'codePathWorker.mjs'), {
    workerData: { root: ROOT, stopAt: /^purchase(Airtime|Data|Electricity|CableTV)$/, stopFile: 'src/main/api/vendingClient.ts', maxSteps: 200_000 },
  });
  try {
    const answers: unknown[] = [];
    let wake = (): void => undefined;
    worker.on('message', (m: unknown) => {
      answers.push(m);
      wake();
    });
    const next = async (): Promise<unknown> => {
      while (answers.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return answers.shift();
    };
    const ready = await next();
    if (ready !== 'ready') throw new Error(`The stepping worker did not start: ${JSON.stringify(ready)}`);
    const running = (() => {
      // Where the worker's stepping begins.
      // eslint-disable-next-line no-debugger
      debugger;
      return action();
    })();
    const result = (await next()) as { steps: Frame[][]; reached: boolean; error?: string };
    await running;
    if (result.error) throw new Error(result.error);
    if (!result.reached) throw new Error('The trace did not reach the first purchase request.');
    return result.steps;
  } finally {
    await worker.terminate();
  }
}

/** Confirms a two-row airtime job while the worker steps through it; the steps up to the first send. */
async function traceConfirmation(): Promise<Frame[][]> {
  const t = await startTestApp({ creditDelayMs: 500 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-trace-'));
  try {
    const file = path.join(dir, 'staff.csv');
    fs.writeFileSync(file, 'Name,Phone,Network,Amount\nAda,08031000001,MTN,100\nBayo,08031000002,MTN,100\n');
    const preview = await t.call('bulk.prepare', { file: { path: file }, kind: 'airtime' });
    // The lease's heartbeat (a third of the lease) must not fire in the middle of the stepping,
    // however slow the machine: the path is the confirmation's alone.
    const bulk = t.app.service(createBulkService);
    bulk.timing = { ...bulk.timing, leaseMs: 60 * 60_000 };
    return await stepThrough(() => t.call('bulk.confirm', { jobId: preview.job.id, wait: true }));
  } finally {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One count as a line: files, returns (the files most returned to), changes of file. */
export function countLine(name: string, c: PathCount): string {
  const most = Object.entries(c.returnsByFile)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([f, n]) => `${path.basename(f)} ${n}`)
    .join(', ');
  return `${name}: ${c.files.length} files, ${c.returns} returns (most: ${most || 'none'}), ${c.switches} changes of file`;
}

/**
 * Runs `trace` and prints what it stepped through, counted from the handler in `from`: with
 * `--json` one JSON document (what the path tests read), else the counts, the own code's files and
 * its path. `title` says what was traced; `own` names its own code. Exits 1 when the trace fails.
 */
export function printTrace(trace: () => Promise<Frame[][]>, { from, title, own: ownName }: { from: string; title: string; own: string }): void {
  (async () => {
    const steps = await trace();
    const all = countPath(steps, () => true, from);
    const own = countPath(steps, (f) => !SHARED_PLUMBING.test(f), from);
    if (process.argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify({ steps: steps.length, all, own })}\n`);
      return;
    }
    console.log(`${title} (${steps.length} steps):`);
    console.log(`  ${countLine('all of src/', all)}`);
    console.log(`  ${countLine(ownName, own)}`);
    console.log(`  files of ${ownName}: ${own.files.join(', ')}`);
    console.log(`  path (↩ marks a way back to a caller): ${own.path.join(' → ')}`);
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}

if (require.main === module) {
  printTrace(traceConfirmation, {
    from: 'src/main/handlers/bulkHandlers.ts',
    title: "A bulk job's confirmation, from the bulk.confirm handler to the first purchase request",
    own: "the job's own code",
  });
}
