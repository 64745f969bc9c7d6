/**
 * Two vendesk processes on one data folder (the window and a command, or two commands) buying the
 * same airtime for the same number at the same moment buy it once: the local database, not only
 * the process, holds the purchase under way. Five pairs, each from a fresh start; every figure is
 * read from the service's own log.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allLogEntries, mtnPhone, runBulkCli, startCliSandbox, stopCliSandbox, type CliSandbox } from '../bulk/bulkTestFiles';

const TOKEN = 'top-up-two-processes';
let env: CliSandbox;

beforeAll(async () => {
  // A purchase's command answers once the service accepted it (its outcome is followed later):
  // nothing here waits for the service's credit delay.
  env = await startCliSandbox(TOKEN, { outcomeWaitSeconds: 0 });
});

afterAll(async () => {
  await stopCliSandbox(env);
});

/** The error code of a refused run's JSON, or 'bought'. */
function outcome(r: { code: number; stdout: string }): string {
  if (r.code === 0) return 'bought';
  return (JSON.parse(r.stdout) as { error: { code: string } }).error.code;
}

it('buys the same airtime once when two processes are asked for it at the same moment', async () => {
  for (let pair = 0; pair < 5; pair++) {
    const phone = mtnPhone(7100 + pair);
    const args = ['buy', 'airtime', '--phone', phone, '--amount', '100', '--yes'];
    const runs = await Promise.all([runBulkCli(TOKEN, args, env.dataDir, env.sandbox.url), runBulkCli(TOKEN, args, env.dataDir, env.sandbox.url)]);
    const outcomes = runs.map(outcome).sort();
    expect(outcomes, runs.map((r) => r.stdout + r.stderr).join('\n')).toEqual(['bought', outcomes[1]]);
    expect(['purchase_in_progress', 'recent_duplicate'], runs.map((r) => r.stdout + r.stderr).join('\n')).toContain(outcomes[1]);
    const bought = (await allLogEntries(env.sandbox.url, TOKEN)).filter((e) => e.phone_number === phone);
    expect(bought.map((e) => e.amount)).toEqual(['NGN 100.00']);
  }
});
