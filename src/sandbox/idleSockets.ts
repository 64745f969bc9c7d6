/**
 * Who closes an idle kept-alive connection first. A client that sends a request on a socket the
 * server has just closed meets a reset (ECONNRESET): for a read that is a needless failure, and for
 * a purchase an uncertain outcome. So every HTTP server vendesk runs (the sandbox, the web shell,
 * the tests' proxies) tells its clients to give up an idle socket after a few seconds
 * (`Keep-Alive: timeout=4`, which Node's fetch honours, less its own margin) while it keeps the
 * socket for a minute: the client always lets go first, by a margin no busy machine eats.
 */
import type { Server } from 'node:http';

/** What the server advertises: clients drop an idle socket after this (seconds). */
export const ADVERTISED_IDLE_SECONDS = 4;
/** How long the server itself keeps an idle socket (ms): far beyond what it advertises. */
export const SERVER_IDLE_MS = 65_000;

/** Makes `server` outlast its clients' idle sockets (see the file's comment). */
export function outlastClientIdleSockets(server: Server): void {
  server.keepAliveTimeout = SERVER_IDLE_MS;
  // Node checks headersTimeout against keepAliveTimeout on an idle socket's next request.
  if (server.headersTimeout <= SERVER_IDLE_MS) server.headersTimeout = SERVER_IDLE_MS + 1_000;
  if (server.requestTimeout && server.requestTimeout < server.headersTimeout) server.requestTimeout = server.headersTimeout;
  // Before the server's own handler, so the hint is on every answer (Node writes the header given).
  server.prependListener('request', (_req, res) => {
    res.setHeader('Keep-Alive', `timeout=${ADVERTISED_IDLE_SECONDS}`);
  });
}
