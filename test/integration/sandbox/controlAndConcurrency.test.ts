import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchAccepted, LogEntry, PageObject, SenderIdRecord } from '../../../src/shared/wire';
import { allLogEntries } from '../../support/serviceLogEntries';
import { AIRTIME_BP, costNaira, mtnAirtime, naira, overConnections, start, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

describe('control endpoints', () => {
  it('advances this organisation’s clock only', async () => {
    const a = s.org();
    const b = s.org();
    // The sandbox's `now` is read between these two readings of the clock it shares with the test,
    // an hour on: a bound that holds however long the request took on a busy machine.
    const before = Date.now();
    const r = await a.control.send<{ now: string; offsetSeconds: number }>('POST', 'clock', { advanceSeconds: 3600 });
    const after = Date.now();
    expect(r.status).toBe(200);
    expect(r.body.data.offsetSeconds).toBe(3600);
    expect(Date.parse(r.body.data.now)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3_600_000);
    expect(Date.parse(r.body.data.now)).toBeLessThanOrEqual(after + 3_600_000);
    const other = await b.control.send<{ offsetSeconds: number }>('GET', 'clock');
    expect(other.body.data.offsetSeconds).toBe(0);
    expect((await a.control.send('POST', 'clock', { advanceSeconds: -5 })).status).toBe(400);
    expect((await a.control.send('POST', 'clock', { advanceSeconds: 'soon' })).status).toBe(400);
  });

  it('holds this organisation’s clock: it moves only when advanced, and runs on from there when let go', async () => {
    const org = s.org();
    const running = s.org();
    const held = await org.control.holdClock();
    expect(held.held).toBe(true);
    // Another organisation's clock, not held, moves on (polled until it has); the held one does not.
    const first = (await running.control.clock()).now;
    while ((await running.control.clock()).now === first) await org.control.clock();
    expect((await org.control.clock()).now).toBe(held.now);
    const stamped = await org.post<BatchAccepted>('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    expect(stamped.status).toBe(202);
    const [e] = (await org.get<PageObject<LogEntry>>('/logEntries')).body.data.Items;
    expect(Date.parse(e.created_at)).toBe(Date.parse(held.now));
    const on = await org.control.advanceClock(121);
    expect(Date.parse(on.now)).toBe(Date.parse(held.now) + 121_000);
    const released = await org.control.holdClock(false);
    expect(released.held).toBe(false);
    expect(Date.parse(released.now)).toBeGreaterThanOrEqual(Date.parse(on.now));
    // Let go, it runs on from where it stood.
    let later = released;
    while (later.now === released.now) later = await org.control.clock();
    expect(Date.parse(later.now)).toBeGreaterThan(Date.parse(released.now));
  });

  it('stamps log entries with the sandbox clock', async () => {
    const org = s.org();
    await org.advance(10 * 86_400);
    const before = Date.now();
    await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    const after = Date.now();
    const [e] = (await org.get<PageObject<LogEntry>>('/logEntries')).body.data.Items;
    // Stamped during the purchase, ten days on (between the test's readings, however slow the machine).
    expect(Date.parse(e.created_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 10 * 86_400_000);
    expect(Date.parse(e.created_at)).toBeLessThanOrEqual(after + 10 * 86_400_000);
  });

  it('injects faults for the next count matching calls, with the envelope', async () => {
    const org = s.org();
    await org.fault({ path: '/AirtimeList', status: 500, count: 2 });
    const listed = await org.control.send<{ faults: unknown[] }>('GET', 'faults');
    expect(listed.body.data.faults).toEqual([{ path: '/AirtimeList', status: 500, remaining: 2, withVoucherOnly: false }]);
    for (let i = 0; i < 2; i++) {
      const r = await org.get('/AirtimeList');
      expect(r.status).toBe(500);
      expect(r.body.gatewayStatus).toBe('88');
      expect(r.body.gatewayMessage).toBe('Unsucessfull');
    }
    expect((await org.get('/AirtimeList')).status).toBe(200);
    expect((await s.org().get('/AirtimeList')).status).toBe(200);
    expect((await org.control.send('POST', 'faults', { path: 'purchaseAirtime', status: 503 })).status).toBe(400);
    expect((await org.control.send('POST', 'faults', { path: '/purchaseAirtime', status: 200 })).status).toBe(400);
    await org.fault({ path: '/getSenderIds', status: 503, count: 9 });
    expect((await org.control.send('DELETE', 'faults')).status).toBe(200);
    expect((await org.get('/getSenderIds')).status).toBe(200);
  });

  it('sets the wallet in Naira', async () => {
    const org = s.org();
    const r = await org.control.send<{ GlobalBalance: { Balance: number }[] }>('POST', 'wallet', { balance: 5000.25 });
    expect(r.status).toBe(200);
    expect(r.body.data.GlobalBalance[0].Balance).toBe(5000.25);
    expect(await org.balance()).toBe(5000.25);
    expect((await org.control.send('POST', 'wallet', { balance: -1 })).status).toBe(400);
    expect((await org.control.send('POST', 'wallet', {})).status).toBe(400);
  });

  it('resets data, clock, faults and wallet of this organisation only', async () => {
    const org = s.org();
    const other = s.org();
    await other.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    await org.post('/craetePhonebook', { name: 'x', description: '' });
    await org.post('/sendMessage', { senderId: 'VENDESK', receiverNumber: '08031234567', messageBody: 'hi' });
    await org.setWallet(10);
    await org.advance(500);
    await org.fault({ path: '/AirtimeList', status: 503, count: 3 });
    const r = await org.control.send('POST', 'reset');
    expect(r.status).toBe(200);
    expect((await org.get<PageObject<LogEntry>>('/logEntries')).body.data.TotalRecords).toBe(0);
    expect((await org.get<unknown[]>('/getPhonebook')).body.data).toEqual([]);
    expect((await org.control.send<unknown[]>('GET', 'outbox')).body.data).toEqual([]);
    expect((await org.get<PageObject<unknown>>('/messageHistory')).body.data.TotalRecords).toBe(0);
    expect((await org.control.send<{ offsetSeconds: number }>('GET', 'clock')).body.data.offsetSeconds).toBe(0);
    expect((await org.get('/AirtimeList')).status).toBe(200);
    expect(await org.balance()).toBe(1_000_000);
    const senders = (await org.get<SenderIdRecord[]>('/getSenderIds')).body.data.map((x) => x.senderId).sort();
    expect(senders).toEqual(['PROMOTXT', 'VENDESK']);
    expect((await other.get<PageObject<LogEntry>>('/logEntries')).body.data.TotalRecords).toBe(1);
  });
});

describe('wallet under concurrency', () => {
  it('1,000 concurrent purchases (100 connections at a time) leave the balance exactly right', async () => {
    const org = s.org();
    const amounts = Array.from({ length: 1000 }, (_, i) => 100 + (i % 37) * 3 + 0.5 * (i % 2));
    const phones = amounts.map((_, i) => `0803${String(2_000_000 + i).padStart(7, '0')}`);
    // All at once, as many as the server's accept queue holds without resetting a connection: each purchase is sent once.
    const results = await overConnections(amounts.map((amount, i) => () => org.post<BatchAccepted>('/purchaseAirtime', [mtnAirtime(phones[i], amount)])));
    expect(results.every((r) => r.status === 202)).toBe(true);
    const expected = naira(1_000_000, ...amounts.map((a) => -costNaira(a, AIRTIME_BP.MTN)));
    expect(await org.balance()).toBe(expected);
    // Each purchase is in the service's log once: no phone twice, none missing.
    const log = await allLogEntries(s.sandbox.url, org.token);
    expect(log.map((e) => e.phone_number).sort()).toEqual([...phones].sort());
    const refs = results.flatMap((r) => r.body.data.references);
    expect(new Set(refs).size).toBe(1000);
  });

  it('lets exactly one of many concurrent identical purchases through (429 for the rest)', async () => {
    const org = s.org();
    const spellings = ['08037770001', '2348037770001', '+2348037770001', '8037770001'];
    const airtime = await Promise.all(Array.from({ length: 20 }, (_, i) => org.post('/purchaseAirtime', [mtnAirtime(spellings[i % 4], 700)])));
    expect(airtime.filter((r) => r.status === 202)).toHaveLength(1);
    expect(airtime.filter((r) => r.status === 429)).toHaveLength(19);
    const power = { amount: 3000, meter: '55501230000', phone: '08031234567', disco: 'EKEDC', vendType: 'PREPAID' };
    const meters = await Promise.all(Array.from({ length: 20 }, () => org.post('/purchaseElectricity', power)));
    expect(meters.filter((r) => r.status === 202)).toHaveLength(1);
    expect(meters.filter((r) => r.status === 429)).toHaveLength(19);
    expect(await org.balance()).toBe(naira(1_000_000, -costNaira(700, AIRTIME_BP.MTN), -naira(3000, -36)));
  });

  it('never overdraws: concurrent purchases beyond the wallet are refused and charge nothing', async () => {
    const org = s.org();
    await org.setWallet(10_000);
    const cost = costNaira(1000, AIRTIME_BP.MTN); // 970
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => org.post('/purchaseAirtime', [mtnAirtime(`0806${String(3_000_000 + i).padStart(7, '0')}`, 1000)])));
    const accepted = results.filter((r) => r.status === 202).length;
    const refused = results.filter((r) => r.status === 400).length;
    expect(accepted).toBe(Math.floor(10_000 / cost));
    expect(accepted + refused).toBe(50);
    expect(await org.balance()).toBe(naira(10_000, -accepted * cost));
  });

  it('refunds failures exactly while other purchases run concurrently', async () => {
    const org = s.org();
    const jobs = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? org.post('/purchaseAirtime', [mtnAirtime(`0813${String(i).padStart(3, '0')}9999`, 250)])
        : org.post('/purchaseElectricity', { amount: 1000, meter: `4507${String(i).padStart(7, '0')}`, phone: '08031234567', disco: 'IKEDC', vendType: 'PREPAID' }),
    );
    const results = await Promise.all(jobs);
    const airtimeAccepted = results.filter((r, i) => i % 2 === 0 && r.status === 202).length;
    const powerOk = results.filter((r, i) => i % 2 === 1 && r.status === 200).length;
    await org.advance(5);
    // every failing-number airtime purchase is refunded; electricity stays charged
    expect(await org.balance()).toBe(naira(1_000_000, -powerOk * naira(1000, -12)));
    expect(airtimeAccepted).toBe(100);
    expect(powerOk).toBe(100);
  });
});
