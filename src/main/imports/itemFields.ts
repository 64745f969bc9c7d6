/**
 * What `validateItem` (validateItem.ts) is given: the typed fields of one purchase of each kind, and
 * who hears what is wrong with it, in whose words — a row of a file (`RowChecker`,
 * bulkRowReaders.ts: "add a Network column") or a purchase asked for on its own (`PurchaseChecker`,
 * buying/singleTopUp.ts: "give the network").
 */
import type { Network } from '../../shared/phone';
import type { VendType } from '../../shared/wire';
import type { AmountFromCell, Parsed } from './cellValues';
import type { FieldKey } from './columnMapping';

/**
 * The typed fields of one purchase. A field read from a cell that could not be read carries its
 * reason (`{ ok: false }`, said by `validateItem` in its place among the other issues); `phone` is
 * '' when it could not be read (its issue already said). A field not given is null.
 */
export interface AirtimeFields {
  phone: string;
  network: Parsed<Network> | null;
  productCode: string | null;
  amount: AmountFromCell;
}
export interface DataFields {
  phone: string;
  productCode: string | null;
  network: Parsed<Network> | null;
}
export interface ElectricityFields {
  phone: string;
  disco: string | null;
  meter: Parsed<string>;
  vendType: Parsed<VendType>;
  amount: AmountFromCell;
}
export interface CableFields {
  phone: string;
  provider: string | null;
  bouquet: string | null;
  smartcard: Parsed<string>;
}
export interface ItemFields {
  airtime: AirtimeFields;
  data: DataFields;
  electricity: ElectricityFields;
  cable: CableFields;
}

/** How a purchase's issues name where its fields came from. */
export interface ItemWords {
  /** What to do when the number's prefix does not tell its network. */
  giveNetwork: string;
  /** Who named the network ("the file says"). */
  given: string;
  /** What to do about a ported number's network. */
  changeNetwork: string;
  /** What to do when no data plan is given. */
  choosePlan: string;
  /** What to do when the data plan is not in the catalog. */
  exactPlan: string;
}

/** A row of a bulk sheet. */
export const SHEET_WORDS: ItemWords = {
  giveNetwork: 'add a Network column (MTN, Airtel, Glo or 9mobile)',
  given: 'the file says',
  changeNetwork: 'Change the Network cell if that is wrong',
  choosePlan: 'copy a product code from the data plan list',
  exactPlan: 'copy the exact product code from the data plan list',
};

/** A purchase typed in a form or on the command line (`buying/singleTopUp.ts`): the network and plan are chosen, not read from columns. */
export const FORM_WORDS: ItemWords = {
  giveNetwork: 'give the network (MTN, Airtel, Glo or 9mobile)',
  given: 'you chose',
  changeNetwork: 'Choose the network if that is wrong',
  choosePlan: 'choose a plan of the data catalog',
  exactPlan: 'use the exact plan code of the data catalog',
};

/** Who hears what is wrong with a purchase, or worth a second look. */
export interface ItemChecker {
  readonly words: ItemWords;
  issue(field: FieldKey, text: string): void;
  warn(field: FieldKey, text: string): void;
  /** The number's prefix names another network than the one it is bought on (the number may have been ported). */
  networkConflict(phone: string, given: Network, inferred: Network, text: string): void;
}
