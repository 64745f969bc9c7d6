/**
 * A plain HTTP proxy in front of a service that adds delay, as a far-away service is: each
 * request is held `delayMs / 2` before it is forwarded and its answer `delayMs / 2` before it is
 * passed back. It forwards the path, query, headers and body unchanged (the Host header becomes
 * the service's, as a reverse proxy's usually does, so the service's NextPage links name the
 * service, not the proxy) and records every exchange: when it started, its path and query, the
 * status answered, and how many were in flight at once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { outlastClientIdleSockets } from '../../src/sandbox/idleSockets';

export interface ProxiedExchange {
  startedAt: number;
  /** Path and query as asked. */
  url: string;
  status: number;
  /** When the answer was passed back (0 until then). */
  answeredAt: number;
  /** Requests in flight when this one arrived (itself included). */
  inFlight: number;
  headers: http.IncomingHttpHeaders;
}

export interface LatencyProxy {
  url: string;
  exchanges: ProxiedExchange[];
  /** The most requests in flight at once. */
  maxInFlight(): number;
  setDelay(ms: number): void;
  /** While down, every connection is cut at once (a service that cannot be reached). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startLatencyProxy(target: string, delayMs: number): Promise<LatencyProxy> {
  let delay = delayMs;
  let down = false;
  let inFlight = 0;
  let most = 0;
  const exchanges: ProxiedExchange[] = [];
  const upstream = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    inFlight++;
    most = Math.max(most, inFlight);
    const exchange: ProxiedExchange = { startedAt: Date.now(), url: req.url ?? '/', status: 0, answeredAt: 0, inFlight, headers: req.headers };
    exchanges.push(exchange);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const forward = http.request(
          new URL(req.url ?? '/', target),
          { method: req.method, agent: upstream, headers: { ...req.headers, host: new URL(target).host } },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (c: Buffer) => body.push(c));
            answer.on('end', () => {
              setTimeout(() => {
                exchange.status = answer.statusCode ?? 502;
                exchange.answeredAt = Date.now();
                inFlight--;
                res.writeHead(answer.statusCode ?? 502, answer.headers);
                res.end(Buffer.concat(body));
              }, delay / 2);
            });
          },
        );
        forward.on('error', () => {
          inFlight--;
          res.destroy();
        });
        forward.end(Buffer.concat(chunks));
      }, delay / 2);
    });
  });
  outlastClientIdleSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    maxInFlight: () => most,
    setDelay(ms) {
      delay = ms;
    },
    setDown(value) {
      down = value;
      if (value) server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        upstream.destroy();
        server.close(() => resolve());
      }),
  };
}
