/**
 * The real `vendesk` CLI (bin/vendesk.mjs) in a child process, with a bare environment (PATH,
 * HOME and what the test gives), its output collected as it comes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The repository's root folder. */
export const ROOT = path.resolve(__dirname, '..', '..');

export interface VendeskRun {
  child: ChildProcess;
  /** Everything written so far. */
  stdout: string;
  stderr: string;
  /** The exit code once the process has exited (null when killed). */
  exited: Promise<number | null>;
  /** The exit code (-1 when killed) once the process has exited and its output is all read. */
  closed: Promise<number>;
}

export function spawnVendesk(args: string[], env: { HOME: string } & Record<string, string>): VendeskRun {
  return spawnNode([path.join(ROOT, 'bin', 'vendesk.mjs'), ...args], env);
}

/** Node running `argv` (a script and its arguments) from the repository's root, as spawnVendesk. */
export function spawnNode(argv: string[], env: { HOME: string } & Record<string, string>): VendeskRun {
  return spawnProgram(process.execPath, argv, env);
}

/**
 * A program (such as an installed `vendesk`, run by its `#!/usr/bin/env node` line) from the
 * repository's root, with the same bare environment; this Node comes first on its PATH.
 */
export function spawnProgram(file: string, args: string[], env: { HOME: string } & Record<string, string>): VendeskRun {
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { PATH: [path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter), ...env },
  });
  const run: VendeskRun = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    closed: new Promise((resolve) => child.on('close', (code) => resolve(code ?? -1))),
  };
  child.stdout?.on('data', (c: Buffer) => (run.stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (run.stderr += c.toString()));
  return run;
}

/** Runs the CLI to the end. */
export async function runVendesk(args: string[], env: { HOME: string } & Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = spawnVendesk(args, env);
  const code = await run.closed;
  return { code, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Kills the run with SIGKILL as soon as `reached()` holds (asked every 5 ms); 'finished' when it
 * exited by itself first.
 */
export async function killWhen(run: VendeskRun, reached: () => Promise<boolean>): Promise<'killed' | 'finished'> {
  let exited = false;
  void run.exited.then(() => (exited = true));
  for (;;) {
    if (exited) return 'finished';
    if (await reached()) {
      run.child.kill('SIGKILL');
      await run.exited;
      return 'killed';
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Waits until the run has said what `seen` looks for (its address, a prompt), asked every 25 ms;
 * fails with everything it printed when it exits first or the generous deadline passes. The
 * deadline is time, not a count of polls, and long enough for a start on a busy machine.
 */
export async function untilSaid(run: VendeskRun, seen: () => boolean, what: string, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!seen() && run.child.exitCode === null && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  if (!seen()) throw new Error(`vendesk never said ${what}.\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
}
