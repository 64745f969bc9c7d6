/**
 * Parsed log entries for benchmarks: a realistic mix (types, networks, 11-digit phones,
 * sandbox-like transaction ids), newest first, deterministic for a given count.
 */
import type { ParsedLogEntry } from '../../src/main/api/parseLogEntry';

const TYPES = ['AIRTIME', 'AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV'] as const;
const NETWORKS = ['MTN', 'MTN', 'MTN', 'AIRTEL', 'AIRTEL', 'GLOBACOM', '9MOBILE'];
const PREFIXES = ['0803', '0806', '0813', '0816', '0703', '0802', '0808', '0805', '0809'];

export function* generateLogEntries(count: number, startId = 1, nowMs = Date.UTC(2026, 10, 22, 12)): Generator<ParsedLogEntry> {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let i = 0; i < count; i++) {
    const type = TYPES[Math.floor(rand() * TYPES.length)];
    const network = NETWORKS[Math.floor(rand() * NETWORKS.length)];
    const phone = PREFIXES[Math.floor(rand() * PREFIXES.length)] + String(Math.floor(rand() * 10_000_000)).padStart(7, '0');
    const amountKobo = (100 + Math.floor(rand() * 50) * 100) * 100;
    const commissionKobo = Math.round(amountKobo * 0.03);
    const at = new Date(nowMs - i * 7_000).toISOString();
    yield {
      id: startId + i,
      transactionId: `ATM${at.slice(0, 19).replace(/\D/g, '')}${(startId + i).toString(16).toUpperCase().padStart(9, '0')}`,
      partnerReference: `REQ${(startId + i) * 7}`,
      phoneNumber: phone,
      amountKobo,
      costKobo: amountKobo - commissionKobo,
      commissionKobo,
      type,
      network,
      operator: network,
      region: 'NG',
      description: `${type} ${network}`,
      dataPlan: type === 'DATA' ? `${network}-1GB` : '',
      status: rand() < 0.94 ? 'SUCCESS' : 'FAILED',
      time: at,
      createdAt: at,
      updatedAt: at,
    };
  }
}
