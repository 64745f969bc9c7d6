/**
 * The one way tests and benchmarks start a sandbox (src/sandbox) in process: on 127.0.0.1, on a
 * port chosen at run time, quiet, and stopped by the test that started it (`close()`). Without
 * `tokens` or `tokenFile` it accepts any token, each its own organisation (a test takes a unique
 * one); with them it knows only those, as `vendesk sandbox --token-file` does. `control(token)`
 * is that organisation's control client (sandboxControl.ts).
 *
 * `startSandboxProcess` starts the standalone sandbox in a process of its own instead (`vendesk
 * sandbox` or `src/sandbox/runStandalone.ts`), for tests of that process and for benchmarks that
 * must not share the measured process with it; also on port 0, stopped by its starter.
 *
 * Shared by Vitest and Playwright: no test-runner imports here.
 */
import fs from 'node:fs';
import os from 'node:os';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox';
import { tokensFromText } from '../../src/sandbox/standalone';
import { SandboxControl } from './sandboxControl';
import { spawnNode, spawnVendesk, type VendeskRun } from './vendeskProcess';

export interface TestSandboxOptions extends Pick<
  SandboxOptions,
  'tokens' | 'seedHistory' | 'latencyMs' | 'shapes' | 'accountName' | 'initialBalanceNaira' | 'dbPath' | 'creditDelayMs'
> {
  /** Accept any other token too, each its own organisation (the default when no tokens are given). */
  acceptAnyToken?: boolean;
  /** A file of the tokens the sandbox knows, one a line (`#` starts a comment), as `--token-file`. */
  tokenFile?: string;
  /** Only for a test of a port that is taken; every other test lets the system choose (0). */
  port?: number;
}

export interface TestSandbox extends SandboxHandle {
  /** The control client (`/__sandbox/*`) of the organisation of this token. */
  control(token: string): SandboxControl;
}

export async function startTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const { tokenFile, port = 0, ...rest } = options;
  const tokens = [...(rest.tokens ?? []), ...(tokenFile ? tokensFromText(fs.readFileSync(tokenFile, 'utf8')) : [])];
  const known = rest.tokens !== undefined || tokenFile !== undefined;
  const handle = await startSandbox({ ...rest, tokens, acceptAnyToken: rest.acceptAnyToken ?? !known, host: '127.0.0.1', port, quiet: true });
  return {
    url: handle.url,
    port: handle.port,
    close: () => handle.close(),
    control: (token) => new SandboxControl(handle.url, token),
  };
}

export interface SandboxProcess {
  /** The process, its output so far and its exit. */
  run: VendeskRun;
  /** The address it printed once listening. */
  url: string;
  control(token: string): SandboxControl;
  /** Sends the signal (SIGTERM unless told) and answers the exit code once its output is all read. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export interface SandboxProcessOptions {
  /** `vendesk sandbox …` (the default, as users start it) or `src/sandbox/runStandalone.ts` under tsx. */
  entry?: 'vendesk' | 'runStandalone';
  /** The process's environment besides PATH (HOME defaults to the system's temporary folder). */
  env?: Record<string, string>;
  /** How long it may take to print its address (ms). */
  timeoutMs?: number;
}

/** The standalone sandbox in a process of its own: `--port 0` and then `args` (tokens, --seed-history…). */
export async function startSandboxProcess(args: string[], options: SandboxProcessOptions = {}): Promise<SandboxProcess> {
  const env = { HOME: os.tmpdir(), ...options.env };
  const run =
    options.entry === 'runStandalone'
      ? spawnNode(['--import', 'tsx', 'src/sandbox/runStandalone.ts', '--port', '0', ...args], env)
      : spawnVendesk(['sandbox', '--port', '0', ...args], env);
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): Promise<number> => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
    return run.closed;
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = Date.now();
  for (;;) {
    const printed = /http:\/\/127\.0\.0\.1:\d+/.exec(run.stdout);
    if (printed) {
      const url = printed[0];
      return { run, url, control: (token) => new SandboxControl(url, token), stop };
    }
    if (run.child.exitCode !== null || Date.now() - started > timeoutMs) {
      await stop('SIGKILL');
      throw new Error(`the sandbox process printed no address: ${run.stdout} ${run.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
