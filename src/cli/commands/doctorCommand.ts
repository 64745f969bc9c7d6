/**
 * `vendesk doctor`: the full connection check. Asks every read endpoint of the connection in use
 * once (catalogs, balance, a log page, sender IDs, templates, phonebooks, history, one message's
 * status), says for each whether vendesk could read the answer and what it could not, and never
 * buys or sends. `--json` adds each answer as the service gave it (token and phone numbers
 * redacted), for support. Exit 0 when every answer could be read, 1 otherwise.
 */
import { z } from 'zod';
import type { EndpointCheck, EndpointCheckState } from '../../shared/contract/serviceCheck';
import { cliText } from '../cliHints';
import { EXIT, command } from '../cliCommand';
import { isoTime } from '../jsonShape';
import { lines, tableLines, tt, type TerminalText } from '../terminal';

const STATE_WORDS: Record<EndpointCheckState, string> = {
  read: 'read',
  read_with_gaps: 'read, with gaps',
  unreadable: 'NOT READABLE',
  refused: 'REFUSED',
  no_answer: 'NO ANSWER',
  skipped: 'skipped',
};

function checkLines(checks: EndpointCheck[]): TerminalText {
  const rows = [
    ['ENDPOINT', 'PATH', 'HTTP', 'OUTCOME', 'WHAT VENDESK READ'],
    ...checks.map((c) => [c.subject, c.path, c.httpStatus === null ? '—' : String(c.httpStatus), STATE_WORDS[c.state], c.summary]),
  ];
  const table = tableLines(rows);
  const out: TerminalText[] = [table[0]];
  checks.forEach((c, i) => {
    out.push(table[i + 1]);
    for (const p of c.problems) out.push(tt`    · ${p}`);
  });
  return lines(out);
}

const reading = z.enum(['read', 'read_with_gaps', 'unreadable', 'refused', 'no_answer']);

const answerShape = z.strictObject({
  endpoint: z.string(),
  subject: z.string(),
  method: z.enum(['GET', 'POST']),
  path: z.string(),
  at: isoTime,
  durationMs: z.number(),
  httpStatus: z.number().nullable().describe('null when no answer came'),
  contentType: z.string().nullable(),
  body: z.string().describe('as received, token and phone numbers redacted, cut after 4,000 characters'),
  bodyChars: z.number(),
  envelope: z.boolean().describe("whether the body carries the service's envelope"),
  reading,
  seq: z.number(),
  notes: z.array(z.string()),
});

const reportShape = z.strictObject({
  connection: z.strictObject({ profileId: z.string(), profileName: z.string(), kind: z.enum(['sandbox', 'live']), baseUrl: z.string() }),
  checkedAt: isoTime,
  verdict: z.enum(['ok', 'gaps', 'problems', 'not_the_service', 'unreachable', 'credentials']),
  summary: z.string().describe('the outcome in one sentence'),
  readable: z.number(),
  checked: z.number(),
  checks: z.array(
    z.strictObject({
      endpoint: z.string(),
      subject: z.string(),
      path: z.string(),
      state: z.union([reading, z.literal('skipped')]),
      summary: z.string(),
      problems: z.array(z.string()),
      httpStatus: z.number().nullable(),
      answer: answerShape.nullable().describe('null when skipped'),
    }),
  ),
});

export const doctorCommand = command({
  path: ['doctor'],
  summary: 'Check that vendesk can read every answer of the service (buys and sends nothing)',
  usage: 'vendesk doctor [--json]',
  options: [],
  output: reportShape,
  async run(ctx) {
    const answer = await ctx.call('connection.doctor', {});
    const report = { ...answer, summary: cliText(answer.summary) };
    const c = report.connection;
    const text = lines([tt`Connection: ${c.kind === 'live' ? 'LIVE' : 'SANDBOX'} ${c.profileName} (${c.baseUrl})`, report.summary, '', checkLines(report.checks)]);
    const ok = report.verdict === 'ok' || report.verdict === 'gaps';
    if (ok) return { json: report, text };
    return { json: report, text, failure: { exitCode: EXIT.failed, message: report.summary, hint: 'Each endpoint vendesk could not read is listed with what it answered.' } };
  },
});
