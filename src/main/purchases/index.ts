/** Single electricity and cable TV purchases; also used by bulk jobs for spreadsheet rows. */
export {
  buyElectricity,
  buyCable,
  checkElectricity,
  checkCable,
  type CheckedVendingPurchase,
  validateMeter,
  belowMeterMinimum,
  meterMinimumKobo,
  validateSmartcard,
  findDisco,
  findBouquet,
  refuseDuplicate,
  type BuyOptions,
} from './buyVending';
export { toPurchaseView, findPurchaseRow, listPurchaseRows, findBlockingPurchase, type PurchaseRow } from './purchaseStore';
export { settleFromLog } from './settleFromLog';
export { requeryPurchase } from './requeryPurchase';
export { checkRefund } from './refundCheck';
export { createVendingCatalogs } from './vendingCatalogs';
