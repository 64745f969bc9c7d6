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
  meterAmountRange,
  validateSmartcard,
  findDisco,
  findBouquet,
  refuseDuplicate,
  type BuyOptions,
} from './buyVending';
export { toPurchaseView, findPurchaseRow, getPurchaseRow, listPurchaseRows, findBlockingPurchase, type PurchaseRow } from './purchaseStore';
export { settleFromLog } from './settleFromLog';
export { requeryPurchase } from './requeryPurchase';
export { checkRefund } from './refundCheck';
