/**
 * The CLI tests' peer: a standalone sandbox that knows one token, a data folder, and `vendesk`
 * run in process (runCli) with the global options before or after the command's own words.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../../src/cli/main';
import type { SandboxControl } from '../../support/sandboxControl';
import { startTestSandbox, type TestSandbox, type TestSandboxOptions } from '../../support/testSandbox';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export type Order = 'globals first' | 'globals last';
export const ORDERS: readonly Order[] = ['globals first', 'globals last'];

export interface CliPeer {
  sandbox: TestSandbox;
  token: string;
  dataDir: string;
  /** A folder for files the tests write (exports, spreadsheets). */
  dir: string;
  /** The global options of every run: this data folder (or `dataDir`), this sandbox, `--json` unless `json: false`. */
  globals(json?: boolean, dataDir?: string): string[];
  /** `vendesk ARGS` with the global options before or after ARGS. */
  run(args: string[], order?: Order, options?: { json?: boolean; env?: Record<string, string>; dataDir?: string }): Promise<CliRun>;
  /** `vendesk ARGS` with the global options first; its JSON document, failing on a non-zero exit. */
  json<T = Record<string, unknown>>(args: string[]): Promise<T>;
  /** The sandbox's control endpoints (/__sandbox/…) for this organisation. */
  control: SandboxControl;
  close(): Promise<void>;
}

export async function runInProcess(argv: string[], env: Record<string, string>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += `${t}\n`), stderr: (t) => (stderr += `${t}\n`), env });
  return { code, stdout, stderr };
}

/**
 * `options`: more of its sandbox's (`creditDelayMs` for suites not about the 5 s an airtime purchase
 * is in progress; `seedHistory` for suites that read a log with a past: the token's organisation
 * starts with that many entries over the last 90 days of the sandbox's clock).
 */
export async function startCliPeer(token: string, options: Pick<TestSandboxOptions, 'creditDelayMs' | 'seedHistory'> = {}): Promise<CliPeer> {
  const sandbox = await startTestSandbox({ ...options, tokens: [token] });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-cli-'));
  const dir = path.join(dataDir, 'files');
  fs.mkdirSync(dir);
  const peer: CliPeer = {
    sandbox,
    token,
    dataDir,
    dir,
    globals: (json = true, folder = dataDir) => ['--data-dir', folder, '--base-url', sandbox.url, ...(json ? ['--json'] : [])],
    run(args, order = 'globals first', options = {}) {
      const globals = peer.globals(options.json ?? true, options.dataDir);
      const argv = order === 'globals first' ? [...globals, ...args] : [...args, ...globals];
      return runInProcess(argv, { VENDESK_TOKEN: token, ...options.env });
    },
    async json<T>(args: string[]) {
      const r = await peer.run(args);
      if (r.code !== 0) throw new Error(`vendesk ${args.join(' ')} exited ${r.code}: ${r.stdout} ${r.stderr}`);
      return JSON.parse(r.stdout) as T;
    },
    control: sandbox.control(token),
    async close() {
      await sandbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return peer;
}

/** Every key of a JSON document, at any depth (to find a field named in kobo). */
export function allKeys(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) allKeys(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      allKeys(v, out);
    }
  }
  return out;
}
