/**
 * The vending and messaging service as an HTTP server (docs/sandbox.md): the app's embedded
 * default, the peer of every integration test, and a standalone test double.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outlastClientIdleSockets } from './idleSockets';
import { FAILURE_MESSAGE } from '../shared/wire';
import type { ShapeVariant } from './answerShapes';
import { SandboxCore } from './core';
import { seedHistory } from './seedHistory';
import { createHandler } from './server';

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Known organisations' bearer tokens. */
  tokens?: string[];
  /**
   * Bearer tokens that stand for an organisation without being its name: `{ bearer: organisation }`.
   * The organisation (created and seeded like a known one) answers only to these bearers — vendesk's
   * embedded sandbox keeps its demo organisation across starts and gives each start a new secret.
   */
  bearers?: Record<string, string>;
  /** Any non-empty bearer token becomes its own organisation on first use. */
  acceptAnyToken?: boolean;
  /** SQLite file; state survives restarts. Omitted: in memory. */
  dbPath?: string;
  /** On first creation of each known organisation, this many past log entries (last 90 days). */
  seedHistory?: number;
  /** Starting wallet of each organisation, Naira (default 1,000,000). */
  initialBalanceNaira?: number;
  accountName?: string;
  /** No diagnostics on stderr. */
  quiet?: boolean;
  /**
   * The form of the messaging answers, whose shapes the spec does not show: `standard` (default),
   * `alt` or `sparse` (answerShapes.ts). Per organisation: POST /__sandbox/shapes.
   */
  shapes?: ShapeVariant;
  /** Added round-trip time of every answer, ms (a far-away service): where every organisation starts; each changes its own at /__sandbox/latency. */
  latencyMs?: number;
  /**
   * How long an accepted airtime/data purchase stays PENDING before it is final, ms (default 5 s,
   * `CREDIT_DELAY_MS`). Tests that are not about that wait shorten it; it is on the sandbox's clock.
   */
  creditDelayMs?: number;
}

export interface SandboxHandle {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? '127.0.0.1';
  const initialBalanceNaira = options.initialBalanceNaira ?? 1_000_000;
  if (!Number.isFinite(initialBalanceNaira) || initialBalanceNaira < 0) throw new RangeError('initialBalanceNaira must be a non-negative number');
  if (options.creditDelayMs !== undefined && !(Number.isFinite(options.creditDelayMs) && options.creditDelayMs >= 0))
    throw new RangeError('creditDelayMs must be a non-negative number');
  const core = new SandboxCore({
    dbPath: options.dbPath,
    initialBalanceKobo: Math.round(initialBalanceNaira * 100),
    accountName: options.accountName,
    seedHistory: Math.max(0, Math.floor(options.seedHistory ?? 0)),
    quiet: options.quiet ?? false,
    shapes: options.shapes,
    creditDelayMs: options.creditDelayMs,
  });
  core.seeder = seedHistory;
  const latencyMs = options.latencyMs ?? 0;
  if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new RangeError('latencyMs must be a non-negative number');
  core.latencyMs = latencyMs;
  const knownTokens = new Set((options.tokens ?? []).filter((t) => t.trim() !== ''));
  const bearers = new Map(Object.entries(options.bearers ?? {}).filter(([bearer, org]) => bearer.trim() !== '' && org.trim() !== ''));
  try {
    for (const token of [...knownTokens, ...new Set(bearers.values())]) core.createOrg(token, core.options.seedHistory);
  } catch (err) {
    core.close();
    throw err;
  }

  let port = 0;
  const server = createServer(
    createHandler({
      core,
      acceptAnyToken: options.acceptAnyToken ?? false,
      knownTokens,
      bearers,
      quiet: options.quiet ?? false,
      fallbackHost: () => `${host.includes(':') ? `[${host}]` : host}:${port}`,
    }),
  );
  server.requestTimeout = 60_000;
  outlastClientIdleSockets(server);
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({
      gatewayStatus: '88',
      gatewayMessage: FAILURE_MESSAGE,
      requestReference: '',
      data: tooLarge ? 'request headers (or URL) too large' : 'malformed HTTP request',
    });
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: unknown) => {
    core.close();
    throw err;
  });
  port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          core.close();
          resolve();
        });
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      });
      return closing;
    },
  };
}
