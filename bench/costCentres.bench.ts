/**
 * Spend by cost centre of a 1,000,000-entry month (src/main/costCentres/logCostCentres.ts): the
 * log_cost_centres view grouped by cost centre and type, with half the entries vendesk's own
 * purchases (each with a cost centre) and 20,000 phone numbers in the recipients list. Prints the
 * time of the grouped query beside a plain scan of the same month (the floor, a yardstick in the
 * same run), cold and warm, twice each, the peak RSS and the load average before and after. The
 * issue sets no number of its own for this figure: it is the spend step of the close pack
 * (bench/closePack.bench.ts, < 30 s for the whole pack); the figure to watch is its ratio to the
 * plain scan.
 *
 *   npx tsx bench/costCentres.bench.ts [entries]
 */
import fs from 'node:fs';
import os, { loadavg } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/main/store/database';
import { spendByCostCentre } from '../src/main/costCentres/logCostCentres';
import { reportRow } from './summary';

const entries = Number(process.argv[2] ?? 1_000_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-cost-centres-'));
const db = openDatabase(path.join(dir, 'bench.db'));
try {
  const insertEntry = db.prepare(
    `INSERT INTO log_entries (profile_id, id, transaction_id, partner_reference, phone_number, amount_kobo, cost_kobo, commission_kobo, type, network, operator, region,
       description, data_plan, status, time_text, created_at, updated_at, synced_at)
     VALUES ('p', ?, ?, '', ?, 10000, 9700, 300, ?, 'MTN', '', '', ?, '', 'SUCCESS', '', ?, ?, ?)`,
  );
  db.exec(`INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count,
    batch_size, concurrency, created_at, updated_at) VALUES ('j', 'airtime', 'completed', 'p', 'sandbox', '', 'f', '', '[]', '{}', 0, 0, 1, 1, '', '')`);
  const insertItem = db.prepare(
    `INSERT INTO bulk_items (job_id, seq, row_number, phone, network, product_code, amount_kobo, state, reference, updated_at, cost_centre)
     VALUES ('j', ?, ?, '08030000000', 'MTN', '', 10000, 'success', ?, '', ?)`,
  );
  const insertRecipient = db.prepare(`INSERT INTO recipients (kind, identifier, name, cost_centre, updated_at) VALUES ('phone', ?, '', 'Field', '')`);
  const start = Date.parse('2026-10-01T00:00:00Z');
  const step = Math.floor((30 * 86_400_000) / entries);
  db.transaction(() => {
    for (let i = 1; i <= entries; i++) {
      const at = new Date(start + i * step).toISOString();
      const phone = `0803${String(i % 50_000).padStart(7, '0')}`;
      const electricity = i % 3 === 0;
      insertEntry.run(i, `REF${i}`, phone, electricity ? 'ELECTRICITY' : 'AIRTIME', electricity ? `IKEDC PREPAID 100.00 for meter 4501${i}` : 'MTN airtime', at, at, at);
      if (i % 2 === 0) insertItem.run(i, i, `REF${i}`, ['Sales', 'Operations', 'Finance', 'Facilities'][i % 4]);
      if (i <= 20_000) insertRecipient.run(phone);
    }
  })();
  const loads = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const time = (label: string, run: () => unknown): number => {
    const before = loads();
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    run();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage(cpu0);
    console.log(`${label}: ${ms.toFixed(0)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; load average ${before} → ${loads()})`);
    return ms;
  };
  const from = '2026-10-01T00:00:00.000Z';
  const until = '2026-11-01T00:00:00.000Z';
  db.pragma('wal_checkpoint(TRUNCATE)');
  const plain = () =>
    db
      .prepare("SELECT type, status, count(*), sum(amount_kobo) FROM log_entries WHERE profile_id = 'p' AND created_at >= ? AND created_at < ? GROUP BY type, status")
      .all(from, until);
  const spend = () => spendByCostCentre(db, 'p', from, until);
  const floor: number[] = [];
  const byCentre: number[] = [];
  for (let run = 1; run <= 2; run++) {
    floor.push(time(`run ${run}: plain GROUP BY type, status of ${entries} entries (the yardstick)`, plain));
    byCentre.push(time(`run ${run}: spend by cost centre and type of ${entries} entries`, spend));
    byCentre.push(time(`run ${run}: spend by cost centre and type, again (warm)`, spend));
  }
  const best = Math.min(...byCentre);
  console.log(
    `spend by cost centre, ${entries} entries: best ${best.toFixed(0)} ms = ${(best / Math.min(...floor)).toFixed(1)}× the plain GROUP BY (${Math.min(...floor).toFixed(0)} ms); ` +
      `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB, heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB; ` +
      `target: none of its own (the close pack's < 30 s); load average ${loads()}`,
  );
  reportRow({
    row: `spend by cost centre and type, ${entries.toLocaleString('en-US')} entries`,
    measured: `${best.toFixed(0)} ms = ${(best / Math.min(...floor)).toFixed(1)}× the plain GROUP BY`,
    yardstick: `plain GROUP BY type, status of the month: ${Math.min(...floor).toFixed(0)} ms`,
    target: 'none of its own (in the close pack’s < 30 s)',
    met: null,
  });
} finally {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
