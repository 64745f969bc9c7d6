import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations, type OperationName } from '../../../src/shared/contract';
import { handlers } from '../../../src/main/handlers';
import { APP_VERSION } from '../../../src/main/version';

describe('the app contract', () => {
  it('has exactly one handler for every operation, and no handler without an operation', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).sort());
  });

  it('gives every operation a summary, and an input schema that refuses what is not an object of its fields', () => {
    for (const [name, def] of Object.entries(operations)) {
      expect(def.summary.length, name).toBeGreaterThan(5);
      for (const wrong of [42, 'text', null, [1, 2]]) expect(def.input.safeParse(wrong).success, `${name} refuses ${JSON.stringify(wrong)}`).toBe(false);
    }
  });

  it('declares, next to every operation that changes something a window shows, what it changes (`invalidates`, [] when nothing)', () => {
    // Operations that change nothing a window shows: they declare nothing, and dispatch tells no one.
    const reads = new Set<OperationName>([
      'app.info',
      'account.balance',
      'profiles.list',
      'connection.check',
      'connection.doctor',
      'connection.answers',
      'sync.status',
      'sync.settings.get',
      'logs.query',
      'logs.totals',
      'logs.facets',
      'logs.coverage',
      'logs.get',
      'logs.export',
      'catalog.get',
      'dashboard.summary',
      'dashboard.costCentres',
      'reports.spend',
      'messaging.senderIds',
      'messaging.templates.list',
      'messaging.phonebooks.list',
      'messaging.phonebooks.get',
      'messaging.contacts.preview',
      'messaging.quote',
      'messaging.status',
      'messaging.history',
      'messaging.sandboxOutbox',
      'pending.list',
      'pending.count',
      'purchases.electricityProviders',
      'purchases.cableProviders',
      'purchases.validateMeter',
      'purchases.validateSmartcard',
      'purchases.get',
      'purchases.recent',
      'purchases.checkTopUp',
      'purchases.expectedCost',
      'purchases.topUp',
      'purchases.recentTopUps',
      'reconcile.runs',
      'reconcile.run',
      'reconcile.items',
      'reconcile.exportWorkbook',
      'reconcile.exportCsv',
      'reconcile.sandboxExport',
      'bulk.inspect',
      'bulk.template',
      'bulk.validate',
      'bulk.preview',
      'bulk.invalidRows',
      'bulk.items',
      'bulk.status',
      'bulk.list',
      'bulk.export',
      'bulk.settings.get',
      'team.status',
      'approvals.list',
      'approvals.rows',
      'audit.verify',
      'audit.export',
      'messaging.sheet.preview',
      'messaging.jobs.list',
      'messaging.jobs.get',
      'messaging.notifications.get',
      'standing.list',
      'standing.show',
      'costCentres.history',
      'costCentres.purchase',
      'costCentres.inUse',
      'monthEnd.summary',
      'monthEnd.journal',
      'monthEnd.months',
      'accounts.list',
      'accounts.check',
    ]);
    const undeclared: string[] = [];
    for (const [name, def] of Object.entries(operations) as [OperationName, (typeof operations)[OperationName]][]) {
      if (reads.has(name)) expect('invalidates' in def, `${name} changes nothing a window shows, so it declares nothing`).toBe(false);
      else if (!('invalidates' in def)) undeclared.push(name);
    }
    expect(undeclared, 'operations that change something but do not say what (add `invalidates`, or list them as reads)').toEqual([]);
    // The declarations the windows depend on.
    expect(operations['purchases.buyElectricity'].invalidates).toEqual(['purchases', 'pending', 'balance', 'mirror']);
    expect(operations['pending.requeryNow'].invalidates).toEqual(['pending', 'purchases', 'mirror']);
    expect(operations['messaging.send'].invalidates).toEqual(['balance', 'messages']);
    expect(operations['profiles.activate'].invalidates).toEqual(['connection', 'balance', 'mirror', 'catalog']);
    expect(operations['approvals.decide'].invalidates).toEqual(['jobs']);
    expect(operations['team.setThreshold'].invalidates).toEqual(['team']);
    expect(operations['purchases.buyTopUp'].invalidates).toEqual(['purchases', 'pending', 'balance', 'mirror', 'jobs']);
  });

  it('keeps the app version equal to package.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
  });
});
