/**
 * The web shell: the same renderer served on 127.0.0.1 with the contract over HTTP
 * (`POST /api/<operation>`, events as Server-Sent Events at `GET /api/events`).
 *
 * Safety: loopback only; a random 256-bit session secret made at each start, which the tab gets
 * by exchanging the one-time code of the printed link's #fragment (`POST /api/session`; a spent
 * or unknown code gets 401, so the link in the browser's history signs nothing in) and then sends
 * in the X-Vendesk-Session header on every call (src/shared/webSession.ts) — never a cookie,
 * which browsers would also send to every other server on 127.0.0.1; calls without it get 401; a Host other than 127.0.0.1/localhost with our
 * port gets 403 (DNS rebinding); cross-origin calls get 403; static files cannot escape the build
 * folder; a strict Content-Security-Policy.
 *
 * Cancelling: a call sent with an id in the X-Vendesk-Call header can be cancelled while it runs
 * by `POST /api/cancel/<id>` (src/main/shell/inFlightCalls.ts). Each web shell is one session (its
 * secret); its calls are kept under that session, so no other session can cancel them.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AddressInfo } from 'node:net';
import type { App } from '../appContext';
import { inFlightCalls } from '../shell/inFlightCalls';
import { exportsDir, removeLeftoverUploads, uploadsDir } from '../files';
import { privateDir } from '../privateFiles';
import { formatStreamEvent } from '../../shared/eventStream';
import { CALL_HEADER, LINK_HEADER, SESSION_EXCHANGE_PATH, SESSION_HEADER, sessionLink } from '../../shared/webSession';

const MAX_JSON_BYTES = 5 * 1024 * 1024;
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024 + 1024 * 1024;

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv; charset=utf-8',
};

export interface WebShellOptions {
  app: App;
  /** The built renderer (out/renderer). */
  staticDir: string;
  port?: number;
  /** Fixed secret for tests; random otherwise. */
  secret?: string;
  /** Called when a link has signed a tab in (its code is spent): `npm start` prints the next link. */
  onLinkUsed?: () => void;
}

/** Links not yet used that are kept valid; older ones are forgotten first. */
const MAX_OPEN_LINKS = 32;

export interface WebShell {
  /**
   * A link to open: its #fragment carries a one-time code that signs in the tab it is opened in,
   * once. Each read makes a new link (for another tab); a used one signs nothing in again.
   */
  readonly openUrl: string;
  origin: string;
  port: number;
  secret: string;
  close(): Promise<void>;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function securityHeaders(res: http.ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

function refuse(res: http.ServerResponse, status: number, code: string, message: string, hint?: string): void {
  sendJson(res, status, { ok: false, error: { code, message, ...(hint ? { hint } : {}) } });
}

async function readJsonBody(req: http.IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) return { ok: false, status: 413, message: 'The request is larger than 5 MB.' };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'The request body is not valid JSON.' };
  }
}

export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const { app } = options;
  const secret = options.secret ?? randomBytes(32).toString('hex');
  const staticRoot = path.resolve(options.staticDir);
  let port = 0;
  // The calls of this session (this shell's secret) are kept under this owner.
  const owner = `web:${randomUUID()}`;
  const calls = inFlightCalls(app);
  const sseClients = new Set<http.ServerResponse>();
  // The one-time codes of links handed out and not yet used.
  const linkCodes = new Set<string>();

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  removeLeftoverUploads(app);
  const unsubscribe = app.events.subscribe((event) => {
    const data = formatStreamEvent(event.name, event.payload);
    for (const client of sseClients) client.write(data);
  });

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return refuse(res, 400, 'bad_path', 'The address is not valid.');
    }
    if (decoded.includes('\0')) return refuse(res, 400, 'bad_path', 'The address is not valid.');
    let file = path.resolve(staticRoot, `.${path.posix.normalize(`/${decoded}`)}`);
    if (file !== staticRoot && !file.startsWith(staticRoot + path.sep)) {
      return refuse(res, 403, 'forbidden', 'That file is outside the app.');
    }
    let stat = await fs.promises.stat(file).catch(() => null);
    if (!stat || stat.isDirectory()) {
      // Single-page app: unknown routes get the app shell.
      file = path.join(staticRoot, 'index.html');
      stat = await fs.promises.stat(file).catch(() => null);
      if (!stat) {
        return refuse(res, 503, 'not_built', 'The app has not been built yet.', 'Run npm start (it builds what is missing).');
      }
    }
    const real = await fs.promises.realpath(file);
    if (real !== staticRoot && !real.startsWith(staticRoot + path.sep)) return refuse(res, 403, 'forbidden', 'That file is outside the app.');
    res.writeHead(200, {
      'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': stat.size,
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=3600',
    });
    if (req.method === 'HEAD') return void res.end();
    await pipeline(fs.createReadStream(file), res);
  }

  async function handleUpload(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > MAX_UPLOAD_BYTES) return refuse(res, 413, 'too_large', 'The file is larger than 100 MB.', 'Split it into smaller files.');
    const dir = privateDir(uploadsDir(app));
    const uploadId = randomUUID().replace(/-/g, '');
    const target = path.join(dir, uploadId);
    let size = 0;
    const out = fs.createWriteStream(target, { mode: 0o600 });
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_UPLOAD_BYTES) throw new Error('too_large');
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    } catch {
      out.destroy();
      await fs.promises.rm(target, { force: true });
      return refuse(res, 413, 'too_large', 'The file is larger than 100 MB.', 'Split it into smaller files.');
    }
    const name = url.searchParams.get('name') ?? 'upload';
    sendJson(res, 200, { ok: true, value: { uploadId, name, bytes: size } });
  }

  async function handleDownload(res: http.ServerResponse, name: string): Promise<void> {
    const dir = exportsDir(app);
    const file = path.resolve(dir, name);
    if (path.dirname(file) !== path.resolve(dir)) return refuse(res, 403, 'forbidden', 'That file is not an export.');
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat || !stat.isFile()) return refuse(res, 404, 'not_found', 'That export no longer exists.', 'Export again.');
    res.writeHead(200, {
      'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': stat.size,
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Cache-Control': 'no-store',
    });
    await pipeline(fs.createReadStream(file), res);
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      securityHeaders(res);
      // DNS rebinding: only our own loopback names with our port.
      if (!allowedHosts().has(req.headers.host ?? '')) {
        return refuse(res, 403, 'bad_host', 'This address is not allowed.', `Open http://127.0.0.1:${port}/ instead.`);
      }
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      const isApi = url.pathname.startsWith('/api/');

      if (!isApi) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method', 'Only GET is allowed here.');
        return serveStatic(req, res, url.pathname);
      }

      // Cross-origin calls are refused, whatever they carry.
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins().has(origin)) {
        return refuse(res, 403, 'cross_origin', 'Calls from other web pages are not allowed.');
      }
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        return refuse(res, 403, 'cross_origin', 'Calls from other web pages are not allowed.');
      }
      // A tab opened from a link trades the link's one-time code for the session, once.
      if (url.pathname === SESSION_EXCHANGE_PATH && req.method === 'POST') {
        req.resume();
        const code = req.headers[LINK_HEADER.toLowerCase()];
        const spent = typeof code === 'string' ? [...linkCodes].find((c) => sameSecret(code, c)) : undefined;
        if (spent === undefined) {
          return refuse(
            res,
            401,
            'link_used',
            'This link has already signed in a browser tab, or is from an earlier run of vendesk.',
            'Open the newest link vendesk printed in the terminal.',
          );
        }
        linkCodes.delete(spent);
        options.onLinkUsed?.();
        return sendJson(res, 200, { ok: true, value: { session: secret } });
      }
      // The session travels in a header only the tab opened from the link can set (never a cookie).
      const offered = req.headers[SESSION_HEADER.toLowerCase()];
      if (typeof offered !== 'string' || !sameSecret(offered, secret)) {
        return refuse(res, 401, 'no_session', 'This window is not signed in to vendesk.', 'Open vendesk from the link it printed in the terminal.');
      }

      if (url.pathname === '/api/events' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
        res.write(': connected\n\n');
        sseClients.add(res);
        req.on('close', () => sseClients.delete(res));
        return;
      }
      if (url.pathname === '/api/upload' && req.method === 'POST') return handleUpload(req, res, url);
      if (url.pathname.startsWith('/api/files/') && req.method === 'GET') {
        return handleDownload(res, decodeURIComponent(url.pathname.slice('/api/files/'.length)));
      }

      if (req.method !== 'POST') return refuse(res, 405, 'method', 'Operations are called with POST.');
      if (url.pathname.startsWith('/api/cancel/')) {
        req.resume();
        return sendJson(res, 200, { ok: true, value: { cancelled: calls.cancel(owner, url.pathname.slice('/api/cancel/'.length)) } });
      }
      const type = req.headers['content-type'] ?? '';
      if (!type.startsWith('application/json')) {
        return refuse(res, 415, 'content_type', 'Operations take a JSON body (Content-Type: application/json).');
      }
      const body = await readJsonBody(req);
      if (!body.ok) return refuse(res, body.status, 'bad_request', body.message);
      const name = url.pathname.slice('/api/'.length);
      const result = await calls.dispatch(app, owner, req.headers[CALL_HEADER.toLowerCase()], name, body.value);
      if (result.ok) return sendJson(res, 200, result);
      const status = result.error.code === 'invalid_input' ? 400 : result.error.code === 'unknown_operation' ? 404 : 422;
      return sendJson(res, status, result);
    })().catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal', 'Something went wrong inside vendesk.', 'Try again.');
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const originUrl = `http://127.0.0.1:${port}`;
  return {
    get openUrl() {
      const code = randomBytes(32).toString('hex');
      linkCodes.add(code);
      for (const old of linkCodes) {
        if (linkCodes.size <= MAX_OPEN_LINKS) break;
        linkCodes.delete(old);
      }
      return sessionLink(originUrl, code);
    },
    origin: originUrl,
    port,
    secret,
    async close() {
      unsubscribe();
      for (const client of sseClients) client.end();
      sseClients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
