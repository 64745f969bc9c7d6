/**
 * How quickly the sandbox refuses pathological purchase bodies — a 2-million-character array
 * nested a million deep, and a batch of 1,001 items — beside a plain 2 MB body it also refuses,
 * measured in the same run. A refusal that scanned the body in quadratic time would take many
 * times the plain body's time. Figures are printed, never asserted (docs/testing.md).
 * Run: npm run bench -- hostileBodies [--runs 5]
 */
import { startTestSandbox } from '../test/support/testSandbox';
import { median, numberArg } from './benchArgs';

const RUNS = numberArg('runs', 5);
const TOKEN = 'bench-hostile-bodies';

async function main(): Promise<void> {
  const sandbox = await startTestSandbox({ tokens: [TOKEN] });
  const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
  const bodies: [string, string][] = [
    ['plain 2 MB string (the yardstick)', JSON.stringify('a'.repeat(2_000_000))],
    ['nested 1,000,000 deep', '['.repeat(1_000_000) + ']'.repeat(1_000_000)],
    ['1,001 items', JSON.stringify(Array.from({ length: 1001 }, () => ({ amount: 100, phoneNumber: '08031234567', network: 'MTN', productCode: 'MTN-VTU' })))],
  ];
  const times = new Map<string, number[]>(bodies.map(([name]) => [name, []]));
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [name, body] of bodies) {
        const started = process.hrtime.bigint();
        const res = await fetch(`${sandbox.url}/purchaseAirtime`, { method: 'POST', headers, body });
        await res.text();
        times.get(name)?.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (res.status !== 400) throw new Error(`${name}: expected a refusal (400), got ${res.status}`);
      }
    }
  } finally {
    await sandbox.close();
  }
  const yardstick = median(times.get(bodies[0][0]) ?? [0]);
  console.log(`hostile bodies — sandbox refusals, median of ${RUNS} runs each`);
  for (const [name] of bodies) {
    const ms = median(times.get(name) ?? [0]);
    console.log(`${name.padEnd(36)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / yardstick).toFixed(1)}× the plain body`);
  }
}

void main();
