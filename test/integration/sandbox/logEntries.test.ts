import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry, PageObject } from '../../../src/shared/wire';
import { mtnAirtime, mtnData, start, type Org, type Started } from './sandboxHarness';

let s: Started;
beforeAll(async () => {
  s = await start({ tokens: ['seeded-org'], seedHistory: 2000 });
});
afterAll(() => s.sandbox.close());

type Page = PageObject<LogEntry> & { Download?: string };

async function page(org: Org, query: string): Promise<Page> {
  const r = await org.get<Page>(`/logEntries${query}`);
  expect(r.status, JSON.stringify(r.body.data).slice(0, 200)).toBe(200);
  expect(r.body.gatewayMessage).toBe('Sucessfully Processed');
  return r.body.data;
}

/** An organisation with a known mix: 12 airtime (MTN/GLO), 3 data, 2 electricity, 1 cable, 1 failed electricity. */
async function mixedOrg(): Promise<Org> {
  const org = s.org();
  const air = Array.from({ length: 12 }, (_, i) =>
    i % 3 === 0
      ? { amount: 100 + i, phoneNumber: `0805123${String(i).padStart(4, '0')}`, network: 'GLOBACOM', productCode: 'GLO-VTU', operator: 'Globacom', region: '' }
      : mtnAirtime(`0803123${String(i).padStart(4, '0')}`, 100 + i),
  );
  await org.post('/purchaseAirtime', air);
  await org.post('/purchaseData', [mtnData('08039999999'), mtnData('08031112222'), mtnData('08031113333')]);
  await org.post('/purchaseElectricity', { amount: 2000, meter: '11112223334', phone: '08031234567', disco: 'AEDC', vendType: 'PREPAID' });
  await org.post('/purchaseElectricity', { amount: 2000, meter: '11112220000', phone: '08031234567', disco: 'AEDC', vendType: 'PREPAID' });
  await org.post('/purchaseElectricity', { amount: 2000, meter: '11112229999', phone: '08031234567', disco: 'AEDC', vendType: 'PREPAID' });
  await org.post('/purchaseCableTV', { amount: 1900, smartcard: '1234567890', phone: '08031234567', provider: 'GOTV', bouquetCode: 'gotv-smallie' });
  return org;
}

describe('logEntries paging', () => {
  it('gives TotalPages 0 and empty Items when there are no records', async () => {
    const p = await page(s.org(), '');
    expect(p).toEqual({ TotalPages: 0, CurrentPage: 1, TotalRecords: 0, NextPage: '', PreviousPage: '', Items: [] });
  });

  it('defaults to page 1 (page 0 and 1 are the same) with 10 per page', async () => {
    const org = await mixedOrg();
    const p0 = await page(org, '');
    const p0b = await page(org, '?page=0');
    const p1 = await page(org, '?page=1');
    expect(p0.TotalRecords).toBe(19);
    expect(p0.TotalPages).toBe(2);
    expect(p0.CurrentPage).toBe(1);
    expect(p0.Items).toHaveLength(10);
    expect(p0b.Items.map((e) => e.id)).toEqual(p1.Items.map((e) => e.id));
    expect(p0.Items.map((e) => e.id)).toEqual(p1.Items.map((e) => e.id));
  });

  it('orders newest first (created_at DESC, id DESC) and pages without overlap', async () => {
    const org = await mixedOrg();
    const a = await page(org, '?perPage=7&page=1');
    const b = await page(org, '?perPage=7&page=2');
    const c = await page(org, '?perPage=7&page=3');
    const all = [...a.Items, ...b.Items, ...c.Items];
    expect(all).toHaveLength(19);
    expect(new Set(all.map((e) => e.id)).size).toBe(19);
    for (let i = 1; i < all.length; i++) {
      const prev = all[i - 1];
      const cur = all[i];
      expect(prev.created_at > cur.created_at || (prev.created_at === cur.created_at && prev.id > cur.id)).toBe(true);
    }
    // the latest purchase (cable) comes first
    expect(all[0].type).toBe('CABLETV');
  });

  it('gives absolute NextPage/PreviousPage URLs with the same filters, using the request Host, empty at the ends', async () => {
    const org = await mixedOrg();
    const first = await page(org, '?perPage=5&network=mtn&status=all');
    expect(first.PreviousPage).toBe('');
    const next = new URL(first.NextPage);
    expect(`${next.protocol}//${next.host}`).toBe(s.sandbox.url);
    expect(next.pathname).toBe('/logEntries');
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('perPage')).toBe('5');
    expect(next.searchParams.get('network')).toBe('mtn');
    expect(next.searchParams.get('status')).toBe('all');
    const second = await page(org, next.search);
    expect(second.CurrentPage).toBe(2);
    expect(new URL(second.PreviousPage).searchParams.get('page')).toBe('1');
    expect(second.TotalRecords).toBe(11);
    const third = await page(org, new URL(second.NextPage).search);
    expect(third.Items).toHaveLength(1);
    expect(third.NextPage).toBe('');
    // Host header decides the host of the links
    const viaLocalhost = await fetch(s.sandbox.url.replace('127.0.0.1', 'localhost') + '/logEntries?perPage=5', { headers: { Authorization: `Bearer ${org.token}` } });
    const body = (await viaLocalhost.json()) as { data: Page };
    expect(body.data.NextPage.startsWith(`http://localhost:${s.sandbox.port}/logEntries?`)).toBe(true);
  });

  it('answers a page past the end with empty Items', async () => {
    const org = await mixedOrg();
    const p = await page(org, '?page=50&perPage=10');
    expect(p.Items).toEqual([]);
    expect(p.TotalRecords).toBe(19);
    expect(p.TotalPages).toBe(2);
    expect(p.CurrentPage).toBe(50);
    expect(p.NextPage).toBe('');
    expect(new URL(p.PreviousPage).searchParams.get('page')).toBe('2');
  });

  it('caps perPage at 100', async () => {
    const seeded = new (await import('./sandboxHarness')).Org(s.sandbox.url, 'seeded-org');
    const p = await page(seeded, '?perPage=500');
    expect(p.Items).toHaveLength(100);
    expect(p.TotalPages).toBe(20);
    expect(new URL(p.NextPage).searchParams.get('perPage')).toBe('100');
  });

  it('keeps cached orderings right as purchases, settling and reset change the log', async () => {
    const org = await mixedOrg();
    const before = await page(org, '?perPage=100');
    const airtimeBefore = (await page(org, '?type=airtime')).TotalRecords;
    const pendingBefore = (await page(org, '?status=pending')).TotalRecords;
    const other = s.org();
    await other.post('/purchaseAirtime', [mtnAirtime('08030000001', 100)]); // another organisation's row
    const r = await org.post<{ references: string[] }>('/purchaseData', [mtnData('08030000002')]);
    const after = await page(org, '?perPage=100');
    expect(after.TotalRecords).toBe(before.TotalRecords + 1);
    expect(after.Items[0].transaction_id).toBe(r.body.data.references[0]);
    expect(after.Items.slice(1).map((e) => e.id)).toEqual(before.Items.map((e) => e.id));
    expect((await page(org, '?type=airtime')).TotalRecords).toBe(airtimeBefore);
    expect((await page(org, '?status=pending')).TotalRecords).toBe(pendingBefore + 1);
    await org.advance(5);
    expect((await page(org, '?status=pending')).TotalRecords).toBe(1);
    await org.control.reset();
    expect((await page(org, '?perPage=100')).TotalRecords).toBe(0);
    expect((await page(org, '?type=airtime')).TotalRecords).toBe(0);
  });

  it('answers 400 for invalid paging and filter values', async () => {
    const org = s.org();
    for (const q of [
      '?page=-1',
      '?page=abc',
      '?perPage=0',
      '?status=done',
      '?type=gas',
      '?startdate=2024-13-01',
      '?enddate=yesterday',
      '?download=maybe',
      '?startdate=2026-02-10&enddate=2026-02-01',
    ]) {
      const r = await org.get(`/logEntries${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.gatewayStatus).toBe('88');
    }
  });
});

describe('logEntries filters', () => {
  it('filters by status success, failed, pending and all', async () => {
    const org = await mixedOrg();
    expect((await page(org, '?status=pending&perPage=100')).TotalRecords).toBe(16); // airtime + data pending, 0000 meter pending
    expect((await page(org, '?status=success&perPage=100')).TotalRecords).toBe(2);
    expect((await page(org, '?status=failed&perPage=100')).TotalRecords).toBe(1);
    await org.advance(5);
    expect((await page(org, '?status=pending')).TotalRecords).toBe(1);
    expect((await page(org, '?status=FAILED')).TotalRecords).toBe(2); // 9999 data + 9999 meter
    expect((await page(org, '?status=success')).TotalRecords).toBe(16);
    expect((await page(org, '?status=all')).TotalRecords).toBe(19);
  });

  it('filters by type, with cable matching CABLETV', async () => {
    const org = await mixedOrg();
    expect((await page(org, '?type=airtime&perPage=100')).Items.every((e) => e.type === 'AIRTIME')).toBe(true);
    expect((await page(org, '?type=airtime')).TotalRecords).toBe(12);
    expect((await page(org, '?type=data')).TotalRecords).toBe(3);
    expect((await page(org, '?type=electricity')).TotalRecords).toBe(3);
    const c = await page(org, '?type=cable');
    expect(c.TotalRecords).toBe(1);
    expect(c.Items[0].type).toBe('CABLETV');
    expect((await page(org, '?type=all')).TotalRecords).toBe(19);
  });

  it('filters by network in any case, glo matching GLOBACOM', async () => {
    const org = await mixedOrg();
    const glo = await page(org, '?network=glo&perPage=100');
    expect(glo.TotalRecords).toBe(4);
    expect(glo.Items.every((e) => e.network === 'GLOBACOM')).toBe(true);
    expect((await page(org, '?network=MTN')).TotalRecords).toBe(11);
    expect((await page(org, '?network=mtn&type=data')).TotalRecords).toBe(3);
    expect((await page(org, '?network=airtel')).TotalRecords).toBe(0);
    expect((await page(org, '?network=9mobile')).TotalRecords).toBe(0);
    expect((await page(org, '?network=all')).TotalRecords).toBe(19);
  });

  it('searches phone numbers and transaction ids by partial match', async () => {
    const org = await mixedOrg();
    const byPhone = await page(org, '?search=1230004');
    expect(byPhone.TotalRecords).toBe(1);
    expect(byPhone.Items[0].phone_number).toBe('08031230004');
    expect((await page(org, '?search=%2B2348031230004')).TotalRecords).toBe(1);
    const all = await page(org, '?perPage=100');
    const ref = all.Items[3].transaction_id;
    const byRef = await page(org, `?search=${ref.slice(-10)}`);
    expect(byRef.Items.map((e) => e.transaction_id)).toContain(ref);
    expect((await page(org, '?search=zzzz-nothing')).TotalRecords).toBe(0);
  });

  it('filters by startdate and enddate inclusively, on the sandbox clock (UTC)', async () => {
    const org = s.org();
    await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 100)]);
    await org.advance(3 * 86_400);
    await org.post('/purchaseAirtime', [mtnAirtime('08031234567', 200)]);
    const all = await page(org, '');
    const newest = all.Items[0].created_at.slice(0, 10);
    const oldest = all.Items[1].created_at.slice(0, 10);
    expect(newest).not.toBe(oldest);
    expect((await page(org, `?startdate=${newest}&enddate=${newest}`)).Items.map((e) => e.amount)).toEqual(['NGN 200.00']);
    expect((await page(org, `?startdate=${oldest}&enddate=${oldest}`)).Items.map((e) => e.amount)).toEqual(['NGN 100.00']);
    expect((await page(org, `?startdate=${oldest}`)).TotalRecords).toBe(2);
    expect((await page(org, `?enddate=${oldest}`)).TotalRecords).toBe(1);
  });

  it('formats entries as the spec: amount strings, numbers in Naira, UTC timestamps', async () => {
    const org = s.org();
    await org.post('/purchaseElectricity', { amount: 12345.5, meter: '11112223334', phone: '08031234567', disco: 'IKEDC', vendType: 'PREPAID' });
    const [e] = (await page(org, '')).Items;
    expect(e.amount).toBe('NGN 12,345.50');
    expect(e.commission).toBe(148.14);
    expect(e.transaction_cost).toBe(12197.36);
    expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(e.updated_at).toMatch(/Z$/);
    expect(e.time).not.toBe('');
    expect(Object.keys(e).sort()).toEqual([
      'amount',
      'commission',
      'created_at',
      'data_plan',
      'description',
      'id',
      'network',
      'operator',
      'partner_reference',
      'phone_number',
      'region',
      'status',
      'time',
      'transaction_cost',
      'transaction_id',
      'type',
      'updated_at',
    ]);
  });

  it('adds a CSV Download of the page when download=true', async () => {
    const org = await mixedOrg();
    const p = await page(org, '?download=true&perPage=5');
    expect(p.Items).toHaveLength(5);
    const lines = (p.Download ?? '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,transaction_id,/);
    expect(lines).toHaveLength(6);
    expect((await page(org, '?download=false')).Download).toBeUndefined();
  });
});

describe('seeded history', () => {
  it('seeds N varied, final entries over the last 90 days, each consistent with amount − commission', async () => {
    const seeded = new (await import('./sandboxHarness')).Org(s.sandbox.url, 'seeded-org');
    const first = await page(seeded, '?perPage=100');
    expect(first.TotalRecords).toBe(2000);
    const entries: LogEntry[] = [];
    for (let p = 1; p <= 20; p++) entries.push(...(await page(seeded, `?perPage=100&page=${p}`)).Items);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2000);
    expect(new Set(entries.map((e) => e.type))).toEqual(new Set(['AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV']));
    expect(new Set(entries.filter((e) => e.type === 'AIRTIME').map((e) => e.network))).toEqual(new Set(['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE']));
    const failed = entries.filter((e) => e.status === 'FAILED').length;
    expect(failed).toBeGreaterThan(20);
    expect(failed).toBeLessThan(300);
    expect(entries.every((e) => e.status === 'SUCCESS' || e.status === 'FAILED')).toBe(true);
    const now = Date.now();
    for (const e of entries) {
      const t = Date.parse(e.created_at);
      expect(t).toBeLessThan(now);
      expect(t).toBeGreaterThan(now - 91 * 86_400_000);
      const amountKobo = Math.round(Number(e.amount.replace(/[^\d.]/g, '')) * 100);
      expect(Math.round(e.transaction_cost * 100) + Math.round(e.commission * 100)).toBe(amountKobo);
    }
    expect((await page(seeded, '?status=failed')).TotalRecords).toBe(failed);
    expect(await seeded.balance()).toBe(1_000_000);
  });
});
