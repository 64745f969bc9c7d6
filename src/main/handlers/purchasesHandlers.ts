import { purchasesOperations } from '../../shared/contract/purchases';
import { commissionRates, expectedCost } from '../transactions/expectedCost';
import { nairaToKobo } from '../../shared/money';
import type { App } from '../appContext';
import {
  checkRefund,
  findBouquet,
  findDisco,
  findPurchaseRow,
  listPurchaseRows,
  meterAmountRange,
  settleFromLog,
  toPurchaseView,
  validateMeter,
  validateSmartcard,
} from '../purchases';
import { freshCatalog } from '../catalog/catalogCache';
import { AppError } from '../../shared/appError';
import { buyTopUp, checkTopUp, recentTopUps, topUpView } from '../buying/singleTopUp';
import { buySingleVending } from '../buying/singleVending';
import { createBulkService } from '../buying/bulkService';
import type { HandlersOf } from './handlerTypes';

function purchaseOrThrow(app: App, id: string) {
  const row = findPurchaseRow(app, app.connection, id);
  if (!row) throw new AppError('purchase_not_found', `There is no purchase ${id} on this computer.`, 'Reload the page.');
  return row;
}

export const purchasesHandlers: HandlersOf<typeof purchasesOperations> = {
  'purchases.electricityProviders': async (_input, app) =>
    (await freshCatalog(app, app.session(), 'electricity')).map((d) => ({
      code: d.productCode,
      name: d.name,
      description: d.description,
      minKobo: nairaToKobo(d.minAmount),
      maxKobo: nairaToKobo(d.maxAmount),
    })),

  'purchases.cableProviders': async (_input, app) => {
    const byProvider = new Map<string, { code: string; name: string; amountKobo: number }[]>();
    for (const b of await freshCatalog(app, app.session(), 'cable')) {
      const list = byProvider.get(b.network) ?? [];
      list.push({ code: b.productCode, name: b.description, amountKobo: nairaToKobo(b.amount) });
      byProvider.set(b.network, list);
    }
    return [...byProvider].map(([provider, bouquets]) => ({ provider, bouquets: bouquets.sort((a, b) => a.amountKobo - b.amountKobo) }));
  },

  'purchases.validateMeter': async (input, app) => {
    const { disco, validation } = await validateMeter(app, app.session(), input);
    const range = meterAmountRange(disco, validation);
    return {
      disco: disco.productCode,
      meter: input.meter,
      vendType: input.vendType,
      name: validation.name,
      address: validation.address,
      meterMinKobo: range.meterMinKobo,
      outstandingKobo: nairaToKobo(validation.outstanding),
      allowedMinKobo: range.minKobo,
      allowedMaxKobo: range.maxKobo,
    };
  },

  'purchases.validateSmartcard': async (input, app) => {
    const { provider, validation } = await validateSmartcard(app, app.session(), input);
    return {
      provider,
      smartcard: input.smartcard,
      name: validation.name,
      address: validation.address,
      customerType: validation.customerType,
      outstandingKobo: nairaToKobo(validation.outstanding),
    };
  },

  'purchases.buyElectricity': (input, app) => buySingleVending(app, app.session(), { kind: 'electricity', request: input }),
  'purchases.buyCable': (input, app) => buySingleVending(app, app.session(), { kind: 'cable', request: input }),
  'purchases.expectedCost': async (input, app) => {
    const session = app.session();
    // The catalog's commission rate (electricity and cable), where the recent log has none for it.
    const catalogPercentage =
      input.kind === 'electricity'
        ? (await findDisco(app, session, input.network).catch(() => null))?.percentage
        : input.kind === 'cable' && input.productCode
          ? (await findBouquet(app, session, input.network, input.productCode).catch(() => null))?.percentage
          : undefined;
    const e = expectedCost(commissionRates(app.db, session.connection.profileId), input.kind, [{ network: input.network, faceKobo: input.amountKobo, catalogPercentage }]);
    return { faceKobo: e.faceKobo, costKobo: e.costKobo, rateKnown: e.rateKnown };
  },
  'purchases.get': (input, app) => toPurchaseView(purchaseOrThrow(app, input.id)),
  'purchases.recent': (input, app) => listPurchaseRows(app, app.connection, { kind: input.kind, limit: input.limit }).map(toPurchaseView),
  'purchases.settleUncertain': async (input, app) => {
    purchaseOrThrow(app, input.id);
    return toPurchaseView(await settleFromLog(app, app.session(), input.id));
  },
  'purchases.checkTopUp': (input, app) => checkTopUp(app, app.session(), input),
  'purchases.buyTopUp': (input, app) => buyTopUp(app, app.session(), input),
  'purchases.topUp': (input, app) => topUpView(app.service(createBulkService), app.session(), input.id),
  'purchases.recentTopUps': (input, app) => recentTopUps(app.service(createBulkService), app.session(), input.kind, input.limit),
  'purchases.checkRefund': async (input, app) => {
    purchaseOrThrow(app, input.id);
    return toPurchaseView(await checkRefund(app, app.session(), input.id));
  },
};
