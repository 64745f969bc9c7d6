/**
 * Something that costs money is checked and done on one connection: the `Session` taken when it
 * was asked for. When vendesk was switched to another connection meanwhile (while the service or
 * the team database answered a check), it is refused before anything is written or sent, so it
 * is never done at a service it was not checked with.
 */
import { AppError } from '../shared/appError';
import type { AppPart, Session } from './appContext';

/** What was refused, in the message: a purchase (the default), a paid message, or a file checked for a bulk job. */
const REFUSED = {
  purchase: { changed: 'The connection changed while the purchase was being prepared.', nothing: 'Nothing was bought.', again: 'buy again' },
  message: { changed: 'The connection changed while the message was being prepared.', nothing: 'Nothing was sent.', again: 'send it again' },
  file: { changed: 'The connection changed while the file was being checked.', nothing: 'Nothing was saved or bought.', again: 'check the file again' },
} as const;

/** Throws `connection_changed` when the connection in use is no longer `session`'s. */
export function refuseIfConnectionChanged(app: AppPart<'connection'>, session: Session, refused: keyof typeof REFUSED = 'purchase'): void {
  if (app.connection.profileId !== session.connection.profileId) {
    const r = REFUSED[refused];
    throw new AppError('connection_changed', `${r.changed} ${r.nothing}`, `Check the connection shown at the top, then ${r.again}.`);
  }
}
