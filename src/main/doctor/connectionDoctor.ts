/**
 * The full connection check (`vendesk doctor`, Settings → Check connection): every read endpoint
 * of the connection in use — catalogs, balance, a log page, sender IDs, templates, phonebooks,
 * message history and one message's status — asked once, without retries, and for each whether
 * vendesk could read the answer and what it could not. It never buys or sends. The answers it
 * gets are kept with the connection's other answers (Settings → Service answers).
 */
import type { DoctorReport, DoctorVerdict, EndpointCheck, EndpointCheckState } from '../../shared/contract/serviceCheck';
import { formatNaira, nairaToKobo } from '../../shared/money';
import { ServiceAnswers } from '../api/serviceAnswers';
import { ENDPOINTS, ServiceError, type EndpointName } from '../api/serviceErrors';
import type { VendingClient } from '../api/vendingClient';
import type { App, AppPart } from '../appContext';
import { ngnWallet } from '../../shared/ngnWallet';

/** One try per endpoint, each within this. */
const CHECK_TIMEOUT_MS = 15_000;

interface Check {
  endpoint: EndpointName;
  path: string;
  /** Reads the endpoint and says in words what it read. */
  run(client: VendingClient): Promise<string>;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-NG')} ${n === 1 ? one : many}`;

const CHECKS: Check[] = [
  {
    endpoint: 'accountBalance',
    path: '/accountBalance',
    async run(c) {
      const b = await c.accountBalance();
      const ngn = ngnWallet(b);
      return ngn ? `${b.AccountName || 'The account'}: ${formatNaira(nairaToKobo(ngn.Balance))} in the NGN wallet` : `${b.AccountName || 'The account'}: no NGN wallet listed`;
    },
  },
  { endpoint: 'airtimeCatalog', path: '/AirtimeList', run: async (c) => plural((await c.airtimeCatalog()).length, 'airtime product') },
  { endpoint: 'dataCatalog', path: '/DataList', run: async (c) => plural((await c.dataCatalog()).length, 'data plan') },
  { endpoint: 'cableCatalog', path: '/CableTVList', run: async (c) => plural((await c.cableCatalog()).length, 'cable TV bouquet') },
  { endpoint: 'electricityCatalog', path: '/ElectricityList', run: async (c) => plural((await c.electricityCatalog()).length, 'electricity provider') },
  { endpoint: 'logEntries', path: '/logEntries', run: async (c) => `${plural((await c.logEntries({ perPage: 5 })).TotalRecords, 'transaction')} in the log` },
  {
    endpoint: 'getSenderIds',
    path: '/getSenderIds',
    async run(c) {
      const list = await c.getSenderIds();
      const approved = list.filter((s) => s.approval?.NG === 'APPROVED').length;
      return `${plural(list.length, 'sender ID')}, ${approved.toLocaleString('en-NG')} approved`;
    },
  },
  { endpoint: 'getTemplates', path: '/getTemplates', run: async (c) => plural((await c.getTemplates()).length, 'template') },
  { endpoint: 'getPhonebooks', path: '/getPhonebook', run: async (c) => plural((await c.getPhonebooks()).length, 'phonebook') },
];

/** The history's first page; `found` is told the newest message reference it gives. */
function historyCheck(found: (reference: string | null) => void): Check {
  return {
    endpoint: 'messageHistory',
    path: '/messageHistory',
    async run(c) {
      const page = await c.messageHistory({ page: 1, perPage: 5 });
      found(page.items.find((m) => m.reference)?.reference ?? null);
      return page.totalRecords !== null ? `${plural(page.totalRecords, 'message')} sent` : `${plural(page.items.length, 'message')} on the first page`;
    },
  };
}

export class ConnectionDoctor {
  constructor(private readonly app: AppPart<'session'>) {}

  async run(): Promise<DoctorReport> {
    const { connection, client } = this.app.session();
    const answers = new ServiceAnswers();
    const checker = client.withTimings({ timeoutMs: CHECK_TIMEOUT_MS, retry: { attempts: 1 } }, answers);
    const checkedAt = new Date().toISOString();

    const newest: { reference: string | null } = { reference: null };
    const checks = await Promise.all([...CHECKS, historyCheck((r) => (newest.reference = r))].map((check) => this.check(checker, answers, check)));
    const reference = newest.reference;
    // One message's status, when the history gives a reference to ask about.
    checks.push(
      reference
        ? await this.check(checker, answers, {
            endpoint: 'messageStatus',
            path: `/MSQ/${reference}`,
            run: async (c) => `status of the newest message: ${(await c.messageStatus(reference)).status ?? 'not given'}`,
          })
        : {
            endpoint: 'messageStatus',
            subject: ENDPOINTS.messageStatus.subject,
            path: '/MSQ/{reference}',
            state: 'skipped',
            summary: 'Not checked: the history gave no message reference to ask about.',
            problems: [],
            httpStatus: null,
            answer: null,
          },
    );
    for (const entry of answers.list().reverse()) client.answers.keep(entry);

    const { verdict, summary } = this.verdict(connection.baseUrl, checks);
    const asked = checks.filter((c) => c.state !== 'skipped');
    return {
      connection: { ...connection },
      checkedAt,
      verdict,
      summary,
      readable: asked.filter((c) => c.state === 'read' || c.state === 'read_with_gaps').length,
      checked: asked.length,
      checks,
    };
  }

  private async check(client: VendingClient, answers: ServiceAnswers, check: Check): Promise<EndpointCheck> {
    const base = { endpoint: check.endpoint, subject: ENDPOINTS[check.endpoint].subject, path: check.path };
    let summary: string;
    let failure: unknown = null;
    try {
      summary = await check.run(client);
    } catch (error) {
      failure = error;
      summary = error instanceof Error ? error.message : String(error);
    }
    const answer = answers.last(check.endpoint);
    const notes = answer?.notes ?? [];
    let state: EndpointCheckState;
    if (failure === null) state = answer?.reading === 'read_with_gaps' ? 'read_with_gaps' : 'read';
    else if (answer?.reading === 'no_answer' || (failure instanceof ServiceError && failure.httpStatus === null)) state = 'no_answer';
    else if (answer?.reading === 'refused') state = 'refused';
    else state = 'unreadable';
    // The summary already says why a call failed; the notes add what an answer did not say or could not be read.
    const problems = state === 'no_answer' || state === 'refused' ? [] : notes;
    return { ...base, state, summary, problems, httpStatus: answer?.httpStatus ?? null, answer };
  }

  /** The outcome in one sentence. */
  private verdict(baseUrl: string, checks: EndpointCheck[]): { verdict: DoctorVerdict; summary: string } {
    const asked = checks.filter((c) => c.state !== 'skipped');
    const answered = asked.filter((c) => c.state !== 'no_answer');
    const readable = asked.filter((c) => c.state === 'read' || c.state === 'read_with_gaps');
    const gaps = asked.filter((c) => c.state === 'read_with_gaps');
    if (answered.length === 0) {
      const why = asked[0]?.answer?.notes[0]?.replace(/^No answer: |\.$/g, '') ?? 'no answer';
      return { verdict: 'unreachable', summary: `Nothing answers at ${baseUrl} (${why}): check the address and the network.` };
    }
    if (answered.every((c) => c.httpStatus === 401 || c.httpStatus === 403)) {
      return { verdict: 'credentials', summary: `The service at ${baseUrl} refused vendesk's API token on every endpoint: check the token in Settings → Connection.` };
    }
    if (!answered.some((c) => c.answer?.envelope)) {
      const example = answered[0];
      const kind = example.answer?.contentType?.split(';')[0] || 'an unknown type';
      return {
        verdict: 'not_the_service',
        summary: `${baseUrl} answers, but it is not the vending service: none of its ${answered.length} endpoints answered in the service's envelope (${example.path} answered HTTP ${example.httpStatus ?? '?'} with ${kind}).`,
      };
    }
    if (readable.length === asked.length && gaps.length === 0) {
      return { verdict: 'ok', summary: `vendesk read every answer of ${baseUrl}: all ${asked.length} endpoints checked, nothing bought or sent.` };
    }
    if (readable.length === asked.length) {
      return { verdict: 'gaps', summary: `vendesk read all ${asked.length} endpoints of ${baseUrl}; ${plural(gaps.length, 'answer')} left facts out, as listed below.` };
    }
    return { verdict: 'problems', summary: `vendesk could read ${readable.length} of ${asked.length} endpoints of ${baseUrl}; below is what it could not read.` };
  }
}

export function createConnectionDoctor(app: App): ConnectionDoctor {
  return new ConnectionDoctor(app);
}
