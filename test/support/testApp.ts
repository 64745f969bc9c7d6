/**
 * A whole vendesk for tests: a sandbox on a free 127.0.0.1 port (its own organisation per test,
 * by a unique token), an App connected to it with its own data folder, and optionally the web
 * shell serving the built renderer. Everything is stopped by close().
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxHandle } from '../../src/sandbox';
import type { ShapeVariant } from '../../src/sandbox/answerShapes';
import { SandboxControl } from './sandboxControl';
import { startTestSandbox } from './testSandbox';
import { ROOT } from './vendeskProcess';
import { startReshapingProxy, type AnswerOverride } from './reshapingProxy';
import { createApp, type App } from '../../src/main/app';
import { dispatch } from '../../src/main/dispatch';
import { uploadsDirIn } from '../../src/main/files';
import { uploadedFilesPolicy, type FilePolicy } from '../../src/main/filePolicy';
import type { RetryOptions } from '../../src/main/api/retryBackoff';
import type { TokenStore } from '../../src/main/store/tokenStore';
import { startWebShell, type WebShell } from '../../src/main/web/webShell';
import type { OperationInput, OperationName, OperationOutput } from '../../src/shared/contract';
import { AppError } from '../../src/shared/appError';

export interface TestApp {
  sandbox: SandboxHandle;
  app: App;
  token: string;
  dataDir: string;
  shell: WebShell | null;
  /** Calls an operation through the same dispatch the shells use; throws AppError on failure. */
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  /** The sandbox's control endpoints (/__sandbox/…) for this organisation: wallet, clock, faults, outbox… */
  sandboxControl: SandboxControl;
  /**
   * A control endpoint by name, answering its whole envelope (GET without a body, POST with one).
   * @deprecated use the typed `sandboxControl`.
   */
  control(pathname: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  web?: boolean;
  /** The app's organisation starts with this many past log entries (on a sandbox of its own). */
  seedHistory?: number;
  /** Reuse a sandbox another part of the test started. */
  sandbox?: SandboxHandle;
  token?: string;
  /** Where live tokens are kept (default: the web shell's and CLI's file store). */
  tokenStore?: TokenStore;
  /** Which files a FileRef may name (default: uploads with `web`, paths otherwise). */
  filePolicy?: FilePolicy;
  /** The form of the sandbox's messaging answers for this organisation (set with POST /__sandbox/shapes). */
  shapes?: ShapeVariant;
  /** Connect the app through a reshaping proxy in front of the sandbox (reshapingProxy.ts), optionally replacing some answers. */
  reshapingProxy?: boolean | AnswerOverride;
  /** Connect as a LIVE connection (real-money rules: typed totals, team approvals) to the sandbox. */
  live?: boolean;
  /** Its own sandbox settles accepted airtime/data after this many ms (default 5 s): for tests not about that wait. */
  creditDelayMs?: number;
  /** The app's client retries with these delays (default 0.5 s doubling): for tests not about the backoff. */
  clientRetry?: RetryOptions;
}

/** One form the service's messaging answers can take, for suites that run against each. */
export interface AnswerForm {
  name: string;
  options: Pick<TestAppOptions, 'shapes' | 'reshapingProxy'>;
  /** Whether this form leaves facts out of its answers (references, costs, counts). */
  sparse: boolean;
}

/** Every form the messaging suites run against: the sandbox's three, and the reshaping proxy. */
export const ANSWER_FORMS: AnswerForm[] = [
  { name: 'standard', options: {}, sparse: false },
  { name: 'alt', options: { shapes: 'alt' }, sparse: false },
  { name: 'sparse', options: { shapes: 'sparse' }, sparse: true },
  { name: 'reshaping proxy', options: { reshapingProxy: true }, sparse: false },
];

export { ROOT };

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownSandbox = !options.sandbox;
  const token = options.token ?? `test-${randomUUID()}`;
  // The sandbox seeds only the organisations of the tokens it knows, created as it starts.
  const seeded = options.seedHistory ? { tokens: [token], seedHistory: options.seedHistory } : {};
  const sandbox = options.sandbox ?? (await startTestSandbox({ acceptAnyToken: true, ...seeded, creditDelayMs: options.creditDelayMs }));
  const sandboxControl = new SandboxControl(sandbox.url, token);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-test-'));
  const proxy = options.reshapingProxy ? await startReshapingProxy(sandbox.url, typeof options.reshapingProxy === 'function' ? options.reshapingProxy : undefined) : null;
  const app = await createApp({
    dataDir,
    shell: options.web ? 'web' : 'test',
    connection: { baseUrl: proxy?.url ?? sandbox.url, token, kind: options.live ? 'live' : 'sandbox', name: options.live ? 'Acme Finance (LIVE)' : 'Test sandbox' },
    tokenStore: options.tokenStore,
    clientRetry: options.clientRetry,
    // As each shell injects it: the web shell reads uploads only; tests name paths, like the CLI.
    filePolicy: options.filePolicy ?? (options.web ? uploadedFilesPolicy(uploadsDirIn(dataDir)) : undefined),
  });
  const shell = options.web ? await startWebShell({ app, staticDir: path.join(ROOT, 'out', 'renderer') }) : null;
  const testApp: TestApp = {
    sandbox,
    app,
    token,
    dataDir,
    shell,
    async call(name, input) {
      const result = await dispatch(app, name, input);
      if (!result.ok) throw AppError.fromShape(result.error);
      return result.value as never;
    },
    sandboxControl,
    async control(pathname, body) {
      const answer = await sandboxControl.send(body === undefined ? 'GET' : 'POST', pathname, body);
      if (answer.status !== 200) throw new Error(`sandbox control ${pathname} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async close() {
      if (shell) await shell.close();
      await app.close();
      if (proxy) await proxy.close();
      if (ownSandbox) await sandbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (options.shapes) await sandboxControl.setShapes(options.shapes);
  return testApp;
}
