/**
 * A paid message is checked, quoted and sent on one connection. When vendesk is switched to
 * another connection while the sender ID is being checked, nothing is sent anywhere (the other
 * service's phonebook 1 is not the one the cost was quoted for), and the refusal says what to do.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ProfileView } from '../../../src/shared/contract/app';
import { refusal } from '../../support/refusal';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { startTestApp, type TestApp } from '../../support/testApp';
import { startTestSandbox, type TestSandbox } from '../../support/testSandbox';
import { holdMethod } from '../../support/heldAnswer';
import { until } from '../../support/until';

const TOKEN_B = 'send-keeps-connection-b';

let t: TestApp;
let b: TestSandbox;
let profileB: ProfileView;

beforeEach(async () => {
  t = await startTestApp();
  b = await startTestSandbox({ tokens: [TOKEN_B] });
  const profileA = await t.call('profiles.save', { name: 'Service A', baseUrl: t.sandbox.url, token: t.token });
  profileB = await t.call('profiles.save', { name: 'Service B', baseUrl: b.url, token: TOKEN_B });
  await t.call('profiles.activate', { id: profileA.id, confirmLive: true });
});

afterEach(async () => {
  await t.close();
  await b.close();
});

it('sends nothing, at either service, when vendesk was switched while the message was being checked', async () => {
  const content = { kind: 'text' as const, text: 'Salaries are paid today.' };
  const target = { kind: 'number' as const, to: '08031234567' };
  const quote = await t.call('messaging.quote', { target, content, emails: [] });
  const walletA = await sandboxWalletKobo(t);
  const walletB = await sandboxWalletKobo({ sandbox: b, token: TOKEN_B });
  // Service A answers the sender-ID check slowly: the user switches to B meanwhile.
  const check = holdMethod(t.app.client(), 'getSenderIds');
  const sending = refusal(t.call('messaging.send', { target, content, emails: [], senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo }));
  await until(() => check.asked, 'the sender ID check at service A');
  await t.call('profiles.activate', { id: profileB.id, confirmLive: true });
  check.release();

  const error = await sending;
  expect(error).toMatchObject({ code: 'connection_changed', message: expect.stringContaining('Nothing was sent'), hint: expect.stringContaining('Check the connection') });
  expect(await t.sandboxControl.outbox()).toEqual([]);
  expect(await b.control(TOKEN_B).outbox()).toEqual([]);
  expect(await sandboxWalletKobo(t)).toBe(walletA);
  expect(await sandboxWalletKobo({ sandbox: b, token: TOKEN_B })).toBe(walletB);
});
