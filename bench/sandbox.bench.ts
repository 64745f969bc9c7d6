/**
 * Sandbox benchmark: requests/second for a catalog GET and an airtime purchase over loopback,
 * the time to seed 1,000,000 log entries, and the time to page through all of them 100 at a time.
 * Run: npx tsx bench/sandbox.bench.ts [--requests 5000] [--concurrency 50] [--seed 1000000]
 */
import { Agent, request } from 'node:http';
import { startTestSandbox } from '../test/support/testSandbox';
import { numberArg } from './benchArgs';

const REQUESTS = numberArg('requests', 5000);
const CONCURRENCY = numberArg('concurrency', 50);
const SEED = numberArg('seed', 1_000_000);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function call(base: string, token: string, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base + path);
    const req = request(
      {
        agent,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

async function rate(label: string, total: number, make: (i: number) => Promise<{ status: number }>, expected: number): Promise<void> {
  let next = 0;
  let bad = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        const r = await make(i);
        if (r.status !== expected) bad++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    `${label.padEnd(34)} ${total} requests, concurrency ${CONCURRENCY}: ${(total / seconds).toFixed(0)} req/s (${(seconds * 1000).toFixed(0)} ms${bad ? `, ${bad} unexpected statuses` : ''})`,
  );
}

async function main(): Promise<void> {
  console.log(`vendesk sandbox benchmark — node ${process.version}, loopback only`);
  const sb = await startTestSandbox({ tokens: ['bench'], initialBalanceNaira: 1_000_000_000 });
  try {
    // warm-up
    for (let i = 0; i < 200; i++) await call(sb.url, 'bench', 'GET', '/AirtimeList');
    await rate('GET /DataList (catalog)', REQUESTS, () => call(sb.url, 'bench', 'GET', '/DataList'), 200);
    await rate(
      'POST /purchaseAirtime (1 item)',
      REQUESTS,
      (i) => {
        const phone = `0803${String(1_000_000 + i).padStart(7, '0')}`;
        return call(
          sb.url,
          'bench',
          'POST',
          '/purchaseAirtime',
          JSON.stringify([{ amount: 100 + (i % 50), phoneNumber: phone, network: 'MTN', productCode: 'MTN-VTU', operator: 'MTN Nigeria', region: '' }]),
        );
      },
      202,
    );
  } finally {
    await sb.close();
  }

  const t0 = Date.now();
  const big = await startTestSandbox({ tokens: ['seeded'], seedHistory: SEED });
  const seedMs = Date.now() - t0;
  console.log(
    `${'seed history'.padEnd(34)} ${SEED.toLocaleString('en-US')} entries: ${(seedMs / 1000).toFixed(2)} s (${Math.round(SEED / (seedMs / 1000)).toLocaleString('en-US')} entries/s, includes start-up)`,
  );
  try {
    const t1 = Date.now();
    let pages = 0;
    let items = 0;
    let path = '/logEntries?perPage=100&page=1';
    while (path) {
      const r = await call(big.url, 'seeded', 'GET', path);
      const data = (JSON.parse(r.text) as { data: { Items: unknown[]; NextPage: string } }).data;
      items += data.Items.length;
      pages++;
      path = data.NextPage ? new URL(data.NextPage).pathname + new URL(data.NextPage).search : '';
    }
    const pageMs = Date.now() - t1;
    console.log(
      `${'page through all, perPage=100'.padEnd(34)} ${pages.toLocaleString('en-US')} requests, ${items.toLocaleString('en-US')} entries: ${(pageMs / 1000).toFixed(2)} s (${(pageMs / pages).toFixed(2)} ms/page)`,
    );
    const t3 = Date.now();
    const mixed = 1000;
    for (let i = 0; i < mixed; i++) {
      const phone = `0806${String(1_000_000 + i).padStart(7, '0')}`;
      await call(big.url, 'seeded', 'POST', '/purchaseAirtime', JSON.stringify([{ amount: 100, phoneNumber: phone, network: 'MTN', productCode: 'MTN-VTU' }]));
      await call(big.url, 'seeded', 'GET', `/logEntries?perPage=100&page=${i + 1}`);
    }
    const mixedMs = Date.now() - t3;
    console.log(
      `${'purchase, then a page, x1000'.padEnd(34)} log of ${(SEED / 1e6).toFixed(1)}M growing: ${(mixedMs / 1000).toFixed(2)} s (${(mixedMs / mixed).toFixed(2)} ms per purchase+page)`,
    );
    const t2 = Date.now();
    const filtered = await call(big.url, 'seeded', 'GET', '/logEntries?perPage=100&status=failed&network=glo&type=airtime');
    const total = (JSON.parse(filtered.text) as { data: { TotalRecords: number } }).data.TotalRecords;
    console.log(`${'first filtered page (cold)'.padEnd(34)} status=failed&network=glo&type=airtime → ${total.toLocaleString('en-US')} records: ${Date.now() - t2} ms`);
  } finally {
    await big.close();
  }
  agent.destroy();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
