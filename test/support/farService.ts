/**
 * A sandbox whose organisation has a seeded history, vendesk connected to it — through a latency
 * proxy when asked, as a far-away service — and one close() for all of it.
 */
import { randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import { startTestSandbox, type TestSandbox } from './testSandbox';
import { startLatencyProxy, type LatencyProxy } from './latencyProxy';
import { startTestApp, type TestApp } from './testApp';

export interface FarService {
  sandbox: TestSandbox;
  /** In front of the sandbox when a delay was given (vendesk talks to it). */
  proxy: LatencyProxy | null;
  app: TestApp;
  close(): Promise<void>;
}

export async function startFarService(history: number, proxyDelayMs?: number): Promise<FarService> {
  const token = `far-${randomUUID()}`;
  const sandbox = await startTestSandbox({ tokens: [token], seedHistory: history });
  const proxy = proxyDelayMs === undefined ? null : await startLatencyProxy(sandbox.url, proxyDelayMs);
  const app = await startTestApp({ sandbox: proxy ? { url: proxy.url, port: 0, close: async () => {} } : sandbox, token });
  return {
    sandbox,
    proxy,
    app,
    async close() {
      await app.close();
      await proxy?.close();
      await sandbox.close();
    },
  };
}

/** For a test file: one far service per test (`start`), closed after each test. */
export function farServicePerTest(): { start(history: number, proxyDelayMs?: number): Promise<FarService> } {
  let current: FarService | null = null;
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  return {
    async start(history, proxyDelayMs) {
      current = await startFarService(history, proxyDelayMs);
      return current;
    },
  };
}
