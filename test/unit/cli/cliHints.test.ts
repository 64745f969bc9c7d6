/** Errors the CLI prints say what to do in the command line's words, not the window's. */
import { describe, expect, it } from 'vitest';
import { CLI_HINTS, cliError, cliText } from '../../../src/cli/cliHints';

describe('the command line hints', () => {
  it('replace the window’s hint by the code of the error', () => {
    expect(
      cliError({
        code: 'service_credentials',
        message: "The service refused vendesk's API token (HTTP 401).",
        hint: 'Check the token in Settings → Connection, or ask your administrator for a new one.',
      }),
    ).toEqual({
      code: 'service_credentials',
      message: "The service refused vendesk's API token (HTTP 401).",
      hint: 'Check the token: run `vendesk --profile NAME balance` with a saved profile, or give a new one in VENDESK_TOKEN with --base-url.',
    });
    expect(
      cliError({
        code: 'duplicate_pending',
        message: 'A purchase … is still pending.',
        hint: 'Wait until it is settled on the Pending page (or resolve it there), then buy again if it failed.',
      }).hint,
    ).toBe('Wait until it is settled (`vendesk pending`, `vendesk requery`), then buy again if it failed.');
    expect(cliError({ code: 'profile_not_found', message: 'There is no connection profile "x".', hint: 'Name one of: Sandbox (sandbox), Acme (p1).' }).hint).toBe(
      'Give --profile one of: Sandbox (sandbox), Acme (p1).',
    );
  });

  it('say how a job that waits for approval goes on, with the command of each of its three ways', async () => {
    const { awaitingApproval } = await import('../../../src/main/team/awaitingApproval');
    const team = '7d7a3c1e-0000-4000-8000-000000000001';
    const single = awaitingApproval('The purchase waits for approval.', { teamJobId: team, next: 'purchase' });
    expect(single.hint).toMatch(/Approvals page.*Buy now/);
    expect(cliError(single).hint).toBe(
      `An approver runs \`vendesk approve ${team}\` (or approves it in the window); then buy it with \`vendesk purchases resume ${team}\` (or ask for the same purchase again).`,
    );
    const bulk = awaitingApproval('Bulk job J waits.', { teamJobId: team, next: 'bulk', jobId: 'job-42' });
    expect(bulk.hint).toMatch(/Bulk purchases and press Buy now/);
    expect(cliError(bulk).hint).toContain('then resume it here with `vendesk bulk resume job-42`');
    const adopt = awaitingApproval('Team job T waits.', { teamJobId: team, next: 'adopt' });
    expect(adopt.hint).toMatch(/Run here/);
    expect(cliError(adopt).hint).toContain(`then run it with \`vendesk bulk adopt ${team}\``);
    for (const e of [single, bulk, adopt]) expect(cliError(e).hint).not.toMatch(/→|Approvals page|Buy now|Run here/);
  });

  it('keep a hint that already speaks for every shell', () => {
    expect(cliError({ code: 'import_empty', message: 'The file is empty.', hint: 'Fix the file, then try again.' }).hint).toBe('Fix the file, then try again.');
    expect(cliError({ code: 'service_retry_later', message: 'Buying airtime is temporarily unavailable.', hint: 'Nothing was charged. Try again in a few minutes.' }).hint).toBe(
      'Nothing was charged. Try again in a few minutes.',
    );
  });

  it('name a command where a message names a page of the window', () => {
    expect(cliText('Split the file, or raise the cap per job (Purchases → Limits for bulk jobs).')).toBe('Split the file, or raise the cap per job (`vendesk bulk caps`).');
    expect(cliText('Sync the mirror (Transactions → Sync) and reconcile again.')).toBe('Sync the mirror (`vendesk sync`) and reconcile again.');
    expect(cliText('if it is not there after a few minutes, resolve it by hand on the Pending page.')).toBe(
      'if it is not there after a few minutes, resolve it by hand with `vendesk pending resolve ID`.',
    );
  });

  it('every fixed hint names a command or an option (an internal error asks for support), never a page', () => {
    for (const [code, hint] of Object.entries(CLI_HINTS)) {
      if (typeof hint !== 'string') continue;
      if (code !== 'internal') expect(hint, code).toMatch(/`vendesk|vendesk |--[a-z]|VENDESK_/);
      expect(hint, code).not.toMatch(/→|\b[A-Z][a-z]+ page\b/);
    }
  });
});
