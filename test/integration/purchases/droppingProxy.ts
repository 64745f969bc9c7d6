/**
 * A real HTTP hop in front of the sandbox that can lose answers: the request reaches the sandbox
 * (so the purchase happens and is charged), then the connection to vendesk is cut before the
 * answer arrives — what a timeout or a dropped mobile connection looks like to the app. It can
 * also lose requests on their way: the connection is cut before the sandbox has them (nothing is
 * bought), which vendesk cannot tell from a lost answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { outlastClientIdleSockets } from '../../../src/sandbox/idleSockets';

export type Rewrite = (answer: { status: number; body: string }) => { status: number; body: string };

export interface DroppingProxy {
  url: string;
  /** The next `count` requests whose path starts with `pathPrefix` lose their answer. */
  dropAnswers(pathPrefix: string, count: number): void;
  /** The next `count` answers to `pathPrefix` reach vendesk changed by `rewrite` (the sandbox did the real thing). */
  rewriteAnswers(pathPrefix: string, count: number, rewrite: Rewrite): void;
  /**
   * The next `count` requests whose path starts with `pathPrefix` never reach the sandbox: once the
   * proxy has one whole, it awaits `meanwhile` (what the test changes while the request is on its
   * way, say a cap), then cuts the connection. The item is uncertain for vendesk, and the service
   * has nothing of it in its log. `lost` counts them.
   */
  loseRequests(pathPrefix: string, count: number, meanwhile?: () => Promise<void>): void;
  readonly lost: number;
  close(): Promise<void>;
}

export async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const drops: { prefix: string; remaining: number }[] = [];
  const rewrites: { prefix: string; remaining: number; rewrite: Rewrite }[] = [];
  const losses: { prefix: string; remaining: number; meanwhile?: () => Promise<void> }[] = [];
  let lost = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const loss = losses.find((l) => l.remaining > 0 && (req.url ?? '').startsWith(l.prefix));
      if (loss) {
        loss.remaining--;
        lost++;
        void (loss.meanwhile?.() ?? Promise.resolve()).finally(() => req.socket.destroy());
        return;
      }
      const rule = drops.find((d) => d.remaining > 0 && (req.url ?? '').startsWith(d.prefix));
      if (rule) rule.remaining--;
      const change = rewrites.find((r) => r.remaining > 0 && (req.url ?? '').startsWith(r.prefix));
      if (change) change.remaining--;
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          if (rule) {
            req.socket.destroy();
            return;
          }
          if (change) {
            const changed = change.rewrite({ status: answer.statusCode ?? 502, body: Buffer.concat(body).toString('utf8') });
            const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(changed.body)) };
            res.writeHead(changed.status, headers);
            res.end(changed.body);
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  outlastClientIdleSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropAnswers(prefix, count) {
      drops.push({ prefix, remaining: count });
    },
    rewriteAnswers(prefix, count, rewrite) {
      rewrites.push({ prefix, remaining: count, rewrite });
    },
    loseRequests(prefix, count, meanwhile) {
      losses.push({ prefix, remaining: count, meanwhile });
    },
    get lost() {
      return lost;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
