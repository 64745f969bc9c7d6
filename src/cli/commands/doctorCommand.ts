/**
 * `vendesk doctor`: the full connection check. Asks every read endpoint of the connection in use
 * once (catalogs, balance, a log page, sender IDs, templates, phonebooks, history, one message's
 * status), says for each whether vendesk could read the answer and what it could not, and never
 * buys or sends. `--json` adds each answer as the service gave it (token and phone numbers
 * redacted), for support. Exit 0 when every answer could be read, 1 otherwise.
 */
import type { EndpointCheck, EndpointCheckState } from '../../shared/contract/serviceCheck';
import { callOrThrow } from '../callOrThrow';
import { EXIT, type CliCommand } from '../cliCommand';
import { textTable } from '../textTable';

const STATE_WORDS: Record<EndpointCheckState, string> = {
  read: 'read',
  read_with_gaps: 'read, with gaps',
  unreadable: 'NOT READABLE',
  refused: 'REFUSED',
  no_answer: 'NO ANSWER',
  skipped: 'skipped',
};

function checkLines(checks: EndpointCheck[]): string {
  const rows = [['ENDPOINT', 'PATH', 'HTTP', 'OUTCOME', 'WHAT VENDESK READ'], ...checks.map((c) => [c.subject, c.path, c.httpStatus === null ? '—' : String(c.httpStatus), STATE_WORDS[c.state], c.summary])];
  const lines = textTable(rows).split('\n');
  const out: string[] = [lines[0]];
  checks.forEach((c, i) => {
    out.push(lines[i + 1]);
    for (const p of c.problems) out.push(`    · ${p}`);
  });
  return out.join('\n');
}

export const doctorCommand: CliCommand = {
  path: ['doctor'],
  summary: 'Check that vendesk can read every answer of the service (buys and sends nothing)',
  usage: 'vendesk doctor [--json]',
  options: [],
  async run(ctx) {
    const app = await ctx.app();
    const report = await callOrThrow(app, 'connection.doctor', {});
    const c = report.connection;
    const text = [`Connection: ${c.kind === 'live' ? 'LIVE' : 'SANDBOX'} ${c.profileName} (${c.baseUrl})`, report.summary, '', checkLines(report.checks)].join('\n');
    const ok = report.verdict === 'ok' || report.verdict === 'gaps';
    return { json: report, text, exitCode: ok ? EXIT.ok : EXIT.failed };
  },
};
