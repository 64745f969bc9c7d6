/**
 * A real HTTP proxy in front of a sandbox that answers the messaging endpoints the way another
 * service plausibly might: every key in PascalCase (the envelope's too: `GatewayStatus`, `Data`),
 * numbers (ids, counts, costs) as strings, every list wrapped in `{ Items, TotalRecords }`, and
 * extra fields on every object. Everything else (vending, catalogs, logs, balance, /__sandbox)
 * passes through unchanged. It shares no code with the sandbox's own shape variants.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { outlastClientIdleSockets } from '../../src/sandbox/idleSockets';

const MESSAGING = [
  '/sendMessage',
  '/createTemplates',
  '/getTemplates',
  '/sendEvidence',
  '/confirmEvidence',
  '/craetePhonebook',
  '/createContact',
  '/getPhonebook',
  '/getSenderIds',
  '/MSQ/',
  '/messageHistory',
];

/** Replaces one answer: return what to answer instead, or null to reshape it as usual. */
export type AnswerOverride = (path: string, status: number, body: unknown) => { status: number; text: string; contentType?: string } | null;

export interface ReshapingProxy {
  url: string;
  /** Messaging answers reshaped so far. */
  reshaped: number;
  close(): Promise<void>;
}

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

/** Reshapes a value of an answer's data. */
function reshape(value: unknown): unknown {
  if (Array.isArray(value)) return { Items: value.map(reshape), TotalRecords: String(value.length), HasMore: false };
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[pascal(k)] = reshape(v);
    out.ETag = `W/"${Object.keys(value).length}"`;
    return out;
  }
  return value;
}

function reshapeEnvelope(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[pascal(k)] = k === 'data' ? reshape(v) : v;
  out.ServerTime = new Date().toISOString();
  out.ApiVersion = '2.3';
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startReshapingProxy(target: string, override?: AnswerOverride): Promise<ReshapingProxy> {
  const proxy: ReshapingProxy = { url: '', reshaped: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) {
        const v = req.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      const upstream = await fetch(target + (req.url ?? '/'), { method: req.method, headers, body: body.length ? new Uint8Array(body) : undefined });
      let text = await upstream.text();
      let status = upstream.status;
      let contentType = upstream.headers.get('content-type') ?? 'application/json';
      const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
      const replaced = override?.(path, status, safeJson(text)) ?? null;
      if (replaced) {
        ({ status, text } = replaced);
        contentType = replaced.contentType ?? contentType;
        proxy.reshaped++;
      } else if (MESSAGING.some((p) => path === p || (p.endsWith('/') && path.startsWith(p)))) {
        try {
          text = JSON.stringify(reshapeEnvelope(JSON.parse(text)));
          proxy.reshaped++;
        } catch {
          // not JSON: passed on as it came
        }
      }
      res.writeHead(status, {
        'Content-Type': contentType,
        'Content-Length': Buffer.byteLength(text),
        ...(upstream.headers.get('date') ? { Date: upstream.headers.get('date') as string } : {}),
      });
      res.end(text);
    })().catch(() => {
      res.writeHead(502).end();
    });
  });
  outlastClientIdleSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
