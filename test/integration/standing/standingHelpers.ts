/**
 * Standing order tests' peer: a CLI peer (its own sandbox and data folder), the sandbox's clock
 * moved to a Lagos day and hour, an order made from a spreadsheet with `vendesk standing add`, and
 * what the service itself recorded (its log of airtime entries, its wallet).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CliPeer } from '../cli/cliHarness';
import { airtimeRows, writeCsv } from '../bulk/bulkTestFiles';
import { sandboxLog, sandboxWalletKobo, type LogRow } from '../../support/sandboxRecords';

/** Moves the sandbox's clock forward to `hour` o'clock in Lagos on `day` (the clock never moves back). */
export async function moveServiceTo(peer: Pick<CliPeer, 'control'>, day: string, hour = 10): Promise<void> {
  const now = Date.parse((await peer.control.clock()).now);
  const target = Date.parse(`${day}T${String(hour - 1).padStart(2, '0')}:00:00.000Z`);
  if (target < now) throw new Error(`the sandbox's clock is already past ${day} ${hour}:00 Lagos (${new Date(now).toISOString()})`);
  if (target > now) await peer.control.advanceClock(Math.ceil((target - now) / 1000));
}

export interface Sheet {
  file: string;
  /** Its per-run total in Naira, as a person types it to confirm on a LIVE connection (the CLI peer's is). */
  total: number;
}

/** A spreadsheet of `count` MTN airtime rows of `naira` each (phones from `offset`). */
export function staffSheet(peer: Pick<CliPeer, 'dir'>, name: string, count: number, naira = 100, offset = 0): Sheet {
  return { file: writeCsv(peer.dir, name, airtimeRows(count, naira, offset)), total: count * naira };
}

export interface OccurrenceJson {
  orderId: string;
  order: string;
  occurrence: string;
  due: string;
  state: string;
  occurrenceState: string;
  jobId: string | null;
  reason: string | null;
  why: string | null;
  missing: number | null;
  job: { state: string; items: number; success: number; bought: number } | null;
  waitingRows: { row: number; phone: string; amount: number; reason: string }[];
}

export interface RunDueJson {
  today: string;
  dryRun: boolean;
  ran: OccurrenceJson[];
  waiting: OccurrenceJson[];
  elsewhere: OccurrenceJson[];
  nextDueAt: string | null;
}

export interface AddedOrder {
  orderId: string;
  state: string;
  perRun: number;
  next: { occurrence: string; due: string } | null;
  upcoming: { occurrence: string; due: string }[];
  occurrences: OccurrenceJson[];
  versions: { version: number; change: string; changedBy: string; rule: string }[];
}

/** `vendesk standing run-due`: its exit code and JSON document. */
export async function runDue(peer: CliPeer, ...args: string[]): Promise<{ code: number; report: RunDueJson; stderr: string }> {
  const r = await peer.run(['standing', 'run-due', ...args]);
  try {
    return { code: r.code, report: JSON.parse(r.stdout) as RunDueJson, stderr: r.stderr };
  } catch {
    throw new Error(`standing run-due exited ${r.code} without a JSON document: ${r.stdout} ${r.stderr}`);
  }
}

/** `vendesk standing add FILE --kind airtime --name NAME --yes --confirm-total TOTAL ARGS…`, its JSON document. */
export async function addOrder(peer: CliPeer, sheet: Sheet, name: string, args: string[], dataDir?: string): Promise<AddedOrder> {
  const r = await peer.run(['standing', 'add', sheet.file, '--kind', 'airtime', '--name', name, '--yes', '--confirm-total', String(sheet.total), ...args], 'globals first', {
    dataDir,
  });
  if (r.code !== 0) throw new Error(`standing add exited ${r.code}: ${r.stdout} ${r.stderr}`);
  return JSON.parse(r.stdout) as AddedOrder;
}

/** The service's airtime log entries (not failed) for this organisation. */
export async function boughtEntries(peer: CliPeer): Promise<LogRow[]> {
  return (await sandboxLog({ sandbox: peer.sandbox, token: peer.token })).filter((e) => e.status !== 'FAILED');
}

/** A log entry's amount ("NGN 200.00") in Naira. */
export function entryNaira(e: LogRow): number {
  return Number(e.amount.replace(/^NGN\s*/, ''));
}

export function walletKobo(peer: CliPeer): Promise<number> {
  return sandboxWalletKobo({ sandbox: peer.sandbox, token: peer.token });
}

export function writeFile(peer: Pick<CliPeer, 'dir'>, name: string, text: string): string {
  const file = path.join(peer.dir, name);
  fs.writeFileSync(file, text);
  return file;
}
