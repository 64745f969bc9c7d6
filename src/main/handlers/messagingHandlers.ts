import { AppError } from '../../shared/appError';
import { messagingOperations } from '../../shared/contract/messaging';
import { createContactsImporter } from '../messaging/contactsImport';
import { createMessagingService } from '../messaging/messagingService';
import { confirmOneTimeCode, sendOneTimeCode } from '../messaging/oneTimeCodes';
import { notificationSettings, setNotificationSettings } from '../messaging/notifications';
import { createPersonalisedMessages } from '../messaging/personalisedMessages';
import { readSheetMessages, sendSheetMessages } from '../messaging/sheetMessages';
import type { HandlersOf } from './handlerTypes';

export const messagingHandlers: HandlersOf<typeof messagingOperations> = {
  'messaging.senderIds': (_input, app) => app.service(createMessagingService).senderIds(),
  'messaging.templates.list': (_input, app) => app.service(createMessagingService).templates(),
  'messaging.templates.create': (input, app) => app.service(createMessagingService).createTemplate(input),
  'messaging.phonebooks.list': (_input, app) => app.service(createMessagingService).phonebooks(),
  'messaging.phonebooks.create': (input, app) => app.service(createMessagingService).createPhonebook(input),
  'messaging.phonebooks.get': (input, app) => app.service(createMessagingService).phonebook(input),
  'messaging.contacts.preview': (input, app) => app.service(createContactsImporter).preview(input),
  'messaging.contacts.import': (input, app, call) => app.service(createContactsImporter).import(input, { signal: call.signal }),
  'messaging.contacts.cancel': (input, app) => ({ cancelled: app.service(createContactsImporter).cancel(input.phoneBookId) }),
  'messaging.quote': (input, app) => app.service(createMessagingService).quote(input),
  'messaging.send': (input, app) => app.service(createMessagingService).send(input),
  'messaging.status': (input, app) => app.service(createMessagingService).status(input.reference),
  'messaging.history': (input, app) => app.service(createMessagingService).history(input),
  'messaging.sheet.preview': async (input, app, call) => (await readSheetMessages(app, input, call.signal)).preview,
  // A job that waits (the CLI) pauses when its call is cancelled (Ctrl-C); the window's job runs on after the call.
  'messaging.sheet.send': (input, app, call) => sendSheetMessages(app, input, input.wait ? call.signal : undefined),
  'messaging.jobs.list': (input, app) => app.service(createPersonalisedMessages).list(input.limit),
  'messaging.jobs.get': (input, app) => app.service(createPersonalisedMessages).page(input),
  'messaging.jobs.pause': (input, app) => app.service(createPersonalisedMessages).pause(input.id),
  'messaging.jobs.resume': (input, app, call) => app.service(createPersonalisedMessages).resume(input.id, { wait: input.wait, ...(input.wait ? { signal: call.signal } : {}) }),
  'messaging.jobs.cancel': (input, app) => app.service(createPersonalisedMessages).cancel(input.id),
  'messaging.notifications.get': (_input, app) => notificationSettings(app),
  'messaging.notifications.set': (input, app) => setNotificationSettings(app, input),
  'messaging.otp.send': (input, app) => sendOneTimeCode(app, input),
  'messaging.otp.confirm': (input, app) => confirmOneTimeCode(app, input),
  'messaging.sandboxOutbox': async (_input, app) => {
    // A live service has no outbox to read, and nothing is asked of it.
    if (app.connection.kind !== 'sandbox')
      throw new AppError(
        'not_sandbox',
        'The outbox exists only on the sandbox connection: a live service sends real messages to real phones.',
        'Switch to the sandbox in Settings to see what it "sent".',
      );
    const entries = await app.client().sandboxOutbox();
    return entries.map((e) => ({ channel: e.channel, to: e.to, body: e.body, reference: e.reference, createdAt: e.createdAt, code: e.code ?? null })).reverse();
  },
};
