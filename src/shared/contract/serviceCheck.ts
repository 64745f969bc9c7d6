/**
 * Operations that look at the service itself, for support: the full connection check (what
 * `vendesk doctor` and Settings → Check connection run: every read endpoint, nothing bought or
 * sent) and the last answers the service gave on the connection in use, redacted.
 */
import { z } from 'zod';
import type { ConnectionInfo } from './app';
import { op } from './define';

/** How vendesk read one answer of the service. */
export type AnswerReading = 'read' | 'read_with_gaps' | 'unreadable' | 'refused' | 'no_answer';

/** One answer of the service as it came, the token and phone numbers redacted. */
export interface ServiceAnswerView {
  /** vendesk's name for the endpoint (`getSenderIds`). */
  endpoint: string;
  /** What the user calls it: "The sender ID list". */
  subject: string;
  method: 'GET' | 'POST';
  /** Path and query, redacted. */
  path: string;
  /** When it arrived, this computer's clock (ISO). */
  at: string;
  durationMs: number;
  /** null when no answer came (timeout, network failure). */
  httpStatus: number | null;
  contentType: string | null;
  /** The body as received (pretty-printed when JSON), redacted, cut to its first 4,000 characters. */
  body: string;
  /** Characters of the whole body. */
  bodyChars: number;
  /** Whether the body carries the service's envelope (`gatewayStatus`, in any spelling). */
  envelope: boolean;
  reading: AnswerReading;
  /** Order of arrival on this connection. */
  seq: number;
  /** What vendesk could not read, or what the answer did not say, in sentences. */
  notes: string[];
}

/** How an endpoint's answer was read, or `skipped` (nothing to ask about). */
export type EndpointCheckState = AnswerReading | 'skipped';

export interface EndpointCheck {
  endpoint: string;
  /** What the user calls it: "The sender ID list". */
  subject: string;
  /** The path asked (`/getSenderIds`). */
  path: string;
  state: EndpointCheckState;
  /** What vendesk read, in words ("2 sender IDs, 1 approved"), or why it could not. */
  summary: string;
  /** What vendesk could not read, or what the answer did not say. */
  problems: string[];
  httpStatus: number | null;
  /** The answer itself, redacted; null when skipped. */
  answer: ServiceAnswerView | null;
}

export type DoctorVerdict = 'ok' | 'gaps' | 'problems' | 'not_the_service' | 'unreachable' | 'credentials';

export interface DoctorReport {
  connection: ConnectionInfo;
  checkedAt: string;
  verdict: DoctorVerdict;
  /** The outcome in one sentence. */
  summary: string;
  /** Endpoints vendesk could read (with or without gaps), of those checked. */
  readable: number;
  checked: number;
  checks: EndpointCheck[];
}

export const serviceCheckOperations = {
  'connection.doctor': op(
    z.object({}),
    'Check every read endpoint of the connection in use (catalogs, balance, log, sender IDs, templates, phonebooks, history): whether vendesk can read each answer; buys and sends nothing',
  ).returns<DoctorReport>(),
  'connection.answers': op(z.object({}), 'The last answers the service gave on the connection in use, per endpoint, token and phone numbers redacted').returns<{
    connection: ConnectionInfo;
    answers: ServiceAnswerView[];
  }>(),
} as const;
