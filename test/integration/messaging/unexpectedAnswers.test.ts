/**
 * A paid send answered with success in a shape vendesk has never seen is reported sent and is
 * sent once: one delivery in the service's outbox, one charge in its wallet, recorded locally as
 * sent with the quoted cost as the charge (said so). Only an answer that is not the service's at
 * all (a web page) leaves the send uncertain — and it is not sent again either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMessagingCharges } from '../../../src/main/reconcile/localSubmissions';
import { refusal } from '../../support/refusal';
import { sandboxWalletKobo } from '../../support/sandboxRecords';
import { startTestApp, type TestApp } from '../../support/testApp';

/** What /sendMessage answers through the proxy, by the text of the message sent. */
const ANSWERS: Record<string, { status: number; text: string; contentType?: string }> = {
  'Shape A': { status: 200, text: JSON.stringify({ gatewayStatus: '00', gatewayMessage: 'Successfully Processed', requestReference: 'REQ-A', data: 'OK' }) },
  'Shape B': { status: 200, text: JSON.stringify({ GatewayStatus: 0, Data: null }) },
  'Shape C': { status: 200, text: JSON.stringify({ success: true, message: 'Message queued for delivery' }) },
  'Shape D': { status: 202, text: JSON.stringify({ gatewayStatus: '01', gatewayMessage: 'Transaction Pending', requestReference: 'REQ-D', data: {} }) },
  'Shape E': { status: 200, text: JSON.stringify({ gatewayStatus: '00', data: { result: { msg_id: 7781, amount_charged: '4.00', state: 'ACCEPTED' } } }) },
  'Shape F': { status: 204, text: '' },
  'Shape G': { status: 200, text: '<html><body>Welcome</body></html>', contentType: 'text/html' },
};

let t: TestApp;
let lastText = '';

beforeAll(async () => {
  // The app talks to the service through the proxy; the test reads the service's own records directly.
  t = await startTestApp({
    reshapingProxy: (path) => {
      if (path === '/sendMessage') return ANSWERS[lastText] ?? null;
      // Created, but the answer names no id: vendesk finds the new one in the list.
      if (path === '/craetePhonebook') return { status: 200, text: JSON.stringify({ gatewayStatus: '00', data: 'Phonebook created' }) };
      if (path === '/createTemplates') return { status: 200, text: JSON.stringify({ gatewayStatus: '00', data: {} }) };
      return null;
    },
  });
  await t.sandboxControl.setWallet(10_000);
});
afterAll(async () => {
  await t.close();
});

async function outboxFor(text: string): Promise<unknown[]> {
  return (await t.sandboxControl.outbox()).filter((e) => e.body === text);
}

async function send(text: string) {
  lastText = text;
  const input = { target: { kind: 'number' as const, to: '08031234567' }, content: { kind: 'text' as const, text }, emails: [] };
  const quote = await t.call('messaging.quote', input);
  return { quote, result: t.call('messaging.send', { ...input, senderId: 'VENDESK', confirmedTotalKobo: quote.totalKobo }) };
}

function recorded(text: string) {
  return t.app.db.prepare('SELECT state, charged_kobo AS charged, charge_source AS source, reference FROM messaging_sends WHERE body = ?').all(text);
}

describe('a send answered with success in an unexpected shape', () => {
  it.each(['Shape A', 'Shape B', 'Shape C', 'Shape D', 'Shape F'])('%s: reported sent, delivered once, charged once, the quoted cost recorded as the charge', async (text) => {
    const walletBefore = await sandboxWalletKobo(t);
    const { quote, result } = await send(text);
    const sent = await result;
    expect(sent).toMatchObject({ status: 'SENT', reference: null, totalCostKobo: quote.totalKobo, costSource: 'quoted', body: text, recipients: ['08031234567'] });
    expect(sent.notes.join(' ')).toMatch(/did not say what it charged; the cost shown is the quoted cost/);
    expect(await outboxFor(text)).toHaveLength(1);
    expect(walletBefore - (await sandboxWalletKobo(t))).toBe(quote.totalKobo);
    expect(recorded(text)).toEqual([{ state: 'sent', charged: quote.totalKobo, source: 'quoted', reference: null }]);
    // The wallet roll-forward counts it, at the quoted cost, and says so.
    const charges = readMessagingCharges(t.app.db, t.app.connection.profileId, 0, Date.now() + 86_400_000);
    expect(charges.at(-1)).toMatchObject({ kobo: quote.totalKobo, uncertain: false, asQuoted: true });
  });

  it('Shape E: a nested result is read for what it says — its id as the reference, its charge as the cost', async () => {
    const { quote, result } = await send('Shape E');
    const sent = await result;
    expect(sent).toMatchObject({ status: 'SENT', reference: '7781', totalCostKobo: 400, costSource: 'service' });
    expect(quote.totalKobo).toBe(400);
    expect(await outboxFor('Shape E')).toHaveLength(1);
    expect(recorded('Shape E')).toEqual([{ state: 'sent', charged: 400, source: 'service', reference: '7781' }]);
  });

  it("Shape G: a web page is not the service's answer: uncertain, never sent again", async () => {
    const walletBefore = await sandboxWalletKobo(t);
    const { result } = await send('Shape G');
    const err = await refusal(result);
    expect(err.code).toBe('uncertain_outcome');
    expect(err.message).toMatch(/Sending the message answered in a form vendesk could not read; it may have been carried out \(and charged\)/);
    expect(await outboxFor('Shape G')).toHaveLength(1);
    expect(walletBefore - (await sandboxWalletKobo(t))).toBe(400);
    expect(recorded('Shape G')).toMatchObject([{ state: 'uncertain' }]);
  });
});

describe('a phonebook or template created without an id in the answer', () => {
  it("is found in the service's list by its name, never created again", async () => {
    const pb = await t.call('messaging.phonebooks.create', { name: 'Depot staff', description: 'Kano' });
    const listed = (await t.call('messaging.phonebooks.list', {})).filter((p) => p.name === 'Depot staff');
    expect(listed).toHaveLength(1);
    expect(pb).toMatchObject({ id: listed[0].id, name: 'Depot staff', description: 'Kano' });
    const tpl = await t.call('messaging.templates.create', { name: 'Depot notice', body: 'Depot {{1}} opens at {{2}}', useCases: ['ops'] });
    const templates = (await t.call('messaging.templates.list', {})).filter((x) => x.name === 'Depot notice');
    expect(templates).toHaveLength(1);
    expect(tpl).toMatchObject({ id: templates[0].id, indexes: ['1', '2'], body: 'Depot {{1}} opens at {{2}}', state: 'PENDING', approved: false });
  });
});
