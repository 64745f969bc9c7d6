/**
 * The HTTP layer: routing, bearer auth, body limits, JSON parsing, fault injection and the
 * envelope on every answer. Nothing a client sends can crash it or leak a stack trace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cableList, airtimeList, dataList, electricityList } from './catalogRoutes';
import type { Ctx } from './context';
import { reshapeAnswer } from './answerShapes';
import { changeCatalog, clearCatalogChanges, readCatalogChanges } from './catalogChanges';
import { addFault, advanceClock, clearFaults, listFaults, outbox, readClock, readLatency, readShapes, reset, setLatency, setShapes, setWallet, withholdRefunds } from './control';
import type { Fault, OrgState, SandboxCore } from './core';
import { HttpError, failure, type Reply } from './httpErrors';
import { logEntries } from './logEntries';
import * as messaging from './messaging';
import { newReference } from './references';
import { accountBalance, purchaseAirtime, purchaseCableTV, purchaseData, purchaseElectricity, requery, validateMeter, validateSmartcard } from './vending';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

type Method = 'GET' | 'POST' | 'DELETE';
type Handler = (ctx: Ctx) => Reply;
type MethodTable = Partial<Record<Method, Handler>>;

const ROUTES: Record<string, MethodTable> = {
  '/AirtimeList': { GET: airtimeList },
  '/DataList': { GET: dataList },
  '/CableTVList': { GET: cableList },
  '/ElectricityList': { GET: electricityList },
  '/accountBalance': { GET: accountBalance },
  '/validateMeter': { POST: validateMeter },
  '/validateSmartcard': { POST: validateSmartcard },
  '/purchaseData': { POST: purchaseData },
  '/purchaseAirtime': { POST: purchaseAirtime },
  '/purchaseElectricity': { POST: purchaseElectricity },
  '/purchaseCableTV': { POST: purchaseCableTV },
  '/logEntries': { GET: logEntries },
  '/sendMessage': { POST: messaging.sendMessage },
  '/createTemplates': { POST: messaging.createTemplate },
  '/getTemplates': { GET: messaging.getTemplates },
  '/sendEvidence': { POST: messaging.sendEvidence },
  '/confirmEvidence': { POST: messaging.confirmEvidence },
  '/craetePhonebook': { POST: messaging.createPhonebook },
  '/createContact': { POST: messaging.createContacts },
  '/getPhonebook': { GET: messaging.getPhonebook },
  '/getSenderIds': { GET: messaging.getSenderIds },
  '/messageHistory': { GET: messaging.messageHistory },
  '/__sandbox/clock': { GET: readClock, POST: advanceClock },
  '/__sandbox/faults': { GET: listFaults, POST: addFault, DELETE: clearFaults },
  '/__sandbox/wallet': { POST: setWallet },
  '/__sandbox/refunds': { POST: withholdRefunds },
  '/__sandbox/outbox': { GET: outbox },
  '/__sandbox/reset': { POST: reset },
  '/__sandbox/shapes': { GET: readShapes, POST: setShapes },
  '/__sandbox/latency': { GET: readLatency, POST: setLatency },
  '/__sandbox/catalog': { GET: readCatalogChanges, POST: changeCatalog, DELETE: clearCatalogChanges },
};

/** Paths with one parameter segment. */
const PARAM_ROUTES: Record<string, MethodTable> = {
  '/requeryTransaction/': { GET: requery },
  '/MSQ/': { GET: messaging.messageStatus },
};

interface Matched {
  table: MethodTable;
  param: string;
}

function match(pathname: string): Matched | null {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const exact = ROUTES[path];
  if (exact) return { table: exact, param: '' };
  for (const [prefix, table] of Object.entries(PARAM_ROUTES)) {
    if (path.startsWith(prefix) && path.length > prefix.length) {
      const rest = path.slice(prefix.length);
      if (rest.includes('/')) return null;
      let param: string;
      try {
        param = decodeURIComponent(rest);
      } catch {
        return null;
      }
      return { table, param };
    }
  }
  return null;
}

export interface ServerConfig {
  core: SandboxCore;
  acceptAnyToken: boolean;
  knownTokens: ReadonlySet<string>;
  /** Bearer → organisation, for organisations that answer only to these bearers. */
  bearers: ReadonlyMap<string, string>;
  quiet: boolean;
  fallbackHost: () => string;
}

/** Writes the answer; `Date` is the organisation's clock (which tests move), as a real service's is its own. */
function send(res: ServerResponse, reply: Reply, nowMs = Date.now()): void {
  if (res.headersSent || res.writableEnded) return;
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    Date: new Date(nowMs).toUTCString(),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...(reply.headers ?? {}),
  });
  res.end(text);
}

export const MAX_JSON_DEPTH = 64;

/** Whether arrays/objects nest deeper than `limit` (strings skipped); a cheap guard before JSON.parse. */
export function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

class BodyTooLarge extends Error {}
/** The client went away before its body arrived: nobody to answer. */
class ClientGone extends Error {}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > MAX_BODY_BYTES) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => {
      if (done) return;
      done = true;
      reject(new ClientGone());
    });
    req.on('close', () => {
      if (done) return;
      done = true;
      reject(new ClientGone());
    });
  });
}

/** The reason text a fault answers with, per the spec's wording for that path and status. */
export function faultReason(path: string, status: number): string {
  if (status === 503) {
    if (path.startsWith('/purchaseAirtime')) return 'airtime vending temporarily unavailable across all servers; retry after a short delay';
    if (path.startsWith('/purchaseData')) return 'data vending temporarily unavailable across all servers; retry after a short delay';
    return 'service temporarily unavailable; retry after a short delay';
  }
  if (status === 502) return 'unable to verify status with the provider; retry after a short delay';
  if (status === 429) {
    if (path.startsWith('/requeryTransaction')) return 'maximum requery attempts reached';
    if (path.startsWith('/purchaseElectricity')) return 'transaction in progress for this meter and amount, please wait';
    return 'transaction in progress for this number and amount, please wait';
  }
  if (status === 425) return 'requery attempted too early';
  if (status === 422) return 'an item could not be posted';
  if (status === 404) return 'transaction not found';
  if (status === 401) return 'invalid bearer token';
  if (status >= 500) return `simulated server error (HTTP ${status}); retry after a short delay`;
  return `simulated failure (HTTP ${status})`;
}

function carriesVoucher(body: unknown): boolean {
  const items = Array.isArray(body) ? body : [body];
  return items.some(
    (item) =>
      typeof item === 'object' && item !== null && typeof (item as { voucherCode?: unknown }).voucherCode === 'string' && (item as { voucherCode: string }).voucherCode !== '',
  );
}

/** Consumes the first fault that matches this call, if any. */
function takeFault(org: OrgState, pathname: string, body: unknown): Fault | null {
  if (pathname.startsWith('/__sandbox')) return null;
  for (const fault of org.faults) {
    if (fault.remaining <= 0 || !pathname.startsWith(fault.path)) continue;
    if (fault.withVoucherOnly && !carriesVoucher(body)) continue;
    fault.remaining--;
    org.faults = org.faults.filter((f) => f.remaining > 0);
    return fault;
  }
  return null;
}

const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1] : null;
}

/** The answer leaves `ms` after it is ready (the way back of a round trip). */
function holdAnswer(res: ServerResponse, ms: number): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    setTimeout(() => end(...args), ms);
    return res;
  }) as typeof res.end;
}

/** Waits `ms`; true when the client closed the connection meanwhile (its request is dropped). */
function clientLeftWithin(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const left = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('close', left);
      resolve(false);
    }, ms);
    res.once('close', left);
  });
}

export function createHandler(config: ServerConfig): (req: IncomingMessage, res: ServerResponse) => void {
  const { core } = config;
  const log = (msg: string) => {
    if (!config.quiet) process.stderr.write(`[sandbox] ${msg}\n`);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let ref = newReference('REQ', Date.now());
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    } catch {
      send(res, failure(ref, 400, 'malformed request URL'));
      return;
    }
    const matched = match(url.pathname);
    if (!matched) {
      send(res, failure(ref, 404, `unknown path ${url.pathname}: see docs/sandbox.md for the endpoints`));
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase() as Method;
    const handler = matched.table[method === ('HEAD' as Method) ? 'GET' : method];
    if (!handler) {
      const allow = Object.keys(matched.table).join(', ');
      send(res, failure(ref, 405, `method ${req.method} not allowed on ${url.pathname}; use ${allow}`, { Allow: allow }));
      return;
    }
    const token = bearer(req);
    if (!token) {
      send(res, failure(ref, 401, 'missing bearer token: send the header Authorization: Bearer <token>', { 'WWW-Authenticate': 'Bearer' }));
      return;
    }
    const alias = config.bearers.get(token);
    const aliased = new Set(config.bearers.values());
    // An organisation reached through bearers answers to them only, never to its own name.
    const org = alias ? core.resolveOrg(alias, false, new Set([alias])) : aliased.has(token) ? null : core.resolveOrg(token, config.acceptAnyToken, config.knownTokens);
    if (!org) {
      send(res, failure(ref, 401, 'invalid bearer token: this token is not an organisation of this sandbox', { 'WWW-Authenticate': 'Bearer error="invalid_token"' }));
      return;
    }
    const answer = (reply: Reply) => send(res, reply, core.now(org));

    let body: unknown;
    if (method === 'POST' || method === 'DELETE') {
      let text: string;
      try {
        text = await readBody(req);
      } catch (err) {
        if (err instanceof BodyTooLarge) {
          answer(failure(ref, 413, `request body too large: the limit is ${MAX_BODY_BYTES} bytes (5 MB)`, { Connection: 'close' }));
          res.on('finish', () => setTimeout(() => req.socket.destroy(), 500).unref());
          return;
        }
        if (err instanceof ClientGone) {
          res.destroy();
          return;
        }
        throw err;
      }
      if (text.trim() !== '') {
        if (nestingExceeds(text, MAX_JSON_DEPTH)) {
          answer(failure(ref, 400, `malformed JSON body: nested deeper than ${MAX_JSON_DEPTH} levels`));
          return;
        }
        try {
          body = JSON.parse(text) as unknown;
        } catch (err) {
          const detail = err instanceof Error ? err.message : 'unparseable';
          answer(failure(ref, 400, `malformed JSON body: ${detail}`));
          return;
        }
      }
    }

    // The organisation's own round trip (`/__sandbox/latency`): half before the request is handled,
    // half before its answer leaves. Another organisation's setting never holds this one's answers.
    const latency = url.pathname.startsWith('/__sandbox') ? 0 : core.latencyOf(org);
    if (latency > 0) {
      holdAnswer(res, latency / 2);
      // A client that gives up meanwhile is not answered, and nothing is done for it.
      if (await clientLeftWithin(res, latency / 2)) return;
    }

    const now = core.now(org);
    ref = newReference('REQ', now);
    core.settle(org, now);

    const fault = takeFault(org, url.pathname, body);
    if (fault) {
      const retryAfter = fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : undefined;
      answer(failure(ref, fault.status, faultReason(url.pathname, fault.status), retryAfter));
      return;
    }

    const hostHeader = req.headers.host ?? '';
    const origin = `http://${SAFE_HOST.test(hostHeader) ? hostHeader : config.fallbackHost()}`;
    const ctx: Ctx = { core, org, now, ref, url, origin, body, param: matched.param };
    try {
      answer(reshapeAnswer(org.shapes ?? core.options.shapes ?? 'standard', url.pathname, handler(ctx)));
    } catch (err) {
      if (err instanceof HttpError) answer(failure(ref, err.status, err.reason, err.headers));
      else throw err;
    }
  }

  const run = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) {
        send(res, failure(newReference('REQ', Date.now()), err.status, err.reason, err.headers));
        return;
      }
      log(`internal error on ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
      send(res, failure(newReference('REQ', Date.now()), 500, 'internal sandbox error; the request was not applied'));
    });
  };

  return run;
}
