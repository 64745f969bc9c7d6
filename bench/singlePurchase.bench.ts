/**
 * Single purchase benchmark: how long a person waits for the receipt of one electricity token
 * (the Electricity form's Buy, `vendesk buy electricity`), from the operation to its answer,
 * against the embedded sandbox over real HTTP: the checks (catalog, meter), the record written
 * before the request leaves, the request, its answer recorded. Prints the median and slowest of
 * `--runs` purchases, each of another meter.
 *
 *   npm run bench -- singlePurchase              # 30 purchases
 *   npm run bench -- singlePurchase --runs 100
 */
import os from 'node:os';
import { dispatch } from '../src/main/dispatch';
import { median, numberArg } from './benchArgs';
import { runBench, withSandboxApp } from './sandboxApp';

async function main(): Promise<void> {
  const runs = numberArg('runs', 30);
  await withSandboxApp('single', async (app) => {
    const times: number[] = [];
    const c0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      // Meters end in 3: the sandbox answers each at once with its token.
      const meter = `45${String(200_000_000 + i * 10 + 3).slice(-9)}`;
      const t0 = performance.now();
      const r = await dispatch(app, 'purchases.buyElectricity', { disco: 'IKEDC', meter, vendType: 'PREPAID', amountKobo: 100_000, phone: '08031234567' });
      times.push(performance.now() - t0);
      if (!r.ok) throw new Error(r.error.message);
      if ((r.value as { state: string }).state !== 'success') throw new Error(`purchase ${i} answered ${(r.value as { state: string }).state}`);
    }
    const c = process.cpuUsage(c0);
    console.log(
      `single purchase benchmark: ${runs} electricity tokens bought one after another — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `receipt after: median ${median(times).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms (cpu ${((c.user + c.system) / 1e3 / runs).toFixed(1)} ms a purchase)`,
    );
  });
}

runBench(main);
