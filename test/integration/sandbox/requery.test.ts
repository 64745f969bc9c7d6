import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchAccepted, RequeryResult } from '../../../src/shared/wire';
import { mtnAirtime, mtnData, start, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start();
});
afterAll(() => s.sandbox.close());

const power = (meter: string) => ({ amount: 5000, meter, phone: '08031234567', disco: 'EKEDC', vendType: 'PREPAID' });

describe('requeryTransaction', () => {
  it('answers 404 "transaction not found" for an unknown orderId', async () => {
    const r = await s.org().get('/requeryTransaction/NOPE-123');
    expect(r.status).toBe(404);
    expect(r.body.gatewayStatus).toBe('88');
    expect(r.body.data).toMatch(/transaction not found/);
  });

  it('answers 425 earlier than 2 min 1 s, and 200 from then on', async () => {
    const org = s.org();
    // Held: 120 s on the sandbox's clock is 120 s, however long the machine takes between calls.
    await org.control.holdClock();
    const p = await org.post('/purchaseElectricity', power('12345670000'));
    const ref = p.body.requestReference;
    const early = await org.get(`/requeryTransaction/${ref}`);
    expect(early.status).toBe(425);
    expect(early.body.data).toMatch(/requery attempted too early/);
    await org.advance(120);
    expect((await org.get(`/requeryTransaction/${ref}`)).status).toBe(425);
    await org.advance(1);
    expect((await org.get(`/requeryTransaction/${ref}`)).status).toBe(200);
  });

  it('answers at most 5 times with 200, then 429; 425 and 502 answers do not count', async () => {
    const org = s.org();
    const p = await org.post('/purchaseElectricity', power('12345672222'));
    const ref = p.body.requestReference;
    expect((await org.get(`/requeryTransaction/${ref}`)).status).toBe(425);
    expect((await org.get(`/requeryTransaction/${ref}`)).status).toBe(425);
    await org.advance(121);
    await org.fault({ path: '/requeryTransaction', status: 502, count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await org.get(`/requeryTransaction/${ref}`);
      expect(r.status).toBe(502);
      expect(r.body.data).toMatch(/unable to verify status with the provider/);
    }
    for (let i = 0; i < 5; i++) {
      const r = await org.get<RequeryResult>(`/requeryTransaction/${ref}`);
      expect(r.status, `attempt ${i + 1}`).toBe(200);
      expect(r.body.data.status).toBe('PENDING');
    }
    const sixth = await org.get(`/requeryTransaction/${ref}`);
    expect(sixth.status).toBe(429);
    expect(sixth.body.data).toMatch(/maximum requery attempts reached/);
  });

  it('a fault path matches as a prefix (covers every orderId)', async () => {
    const org = s.org();
    await org.fault({ path: '/requery', status: 502, count: 1 });
    expect((await org.get('/requeryTransaction/ANY')).status).toBe(502);
    expect((await org.get('/requeryTransaction/ANY')).status).toBe(404);
  });

  it('accepts item references of airtime and data purchases', async () => {
    const org = s.org();
    const a = await org.post<BatchAccepted>('/purchaseAirtime', [mtnAirtime('08031234567', 100), mtnAirtime('08031239999', 100)]);
    const d = await org.post<BatchAccepted>('/purchaseData', [mtnData('08031234567')]);
    await org.advance(121);
    const [okRef, failRef] = a.body.data.references;
    const ok = await org.get<RequeryResult>(`/requeryTransaction/${okRef}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ status: 'SUCCESS', reference: okRef });
    expect((await org.get<RequeryResult>(`/requeryTransaction/${failRef}`)).body.data.status).toBe('FAILED');
    expect((await org.get<RequeryResult>(`/requeryTransaction/${d.body.data.references[0]}`)).body.data.status).toBe('SUCCESS');
  });

  it('does not see another organisation’s transactions', async () => {
    const a = s.org();
    const p = await a.post('/purchaseElectricity', power('12345678888'));
    expect((await s.org().get(`/requeryTransaction/${p.body.requestReference}`)).status).toBe(404);
  });
});
