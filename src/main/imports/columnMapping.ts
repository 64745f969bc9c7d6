/**
 * Which column holds which field. Detected from the header names (case, spacing and
 * punctuation ignored; a few dozen spellings people really use), adjustable in the UI, and
 * remembered per set of headers through {@link headersKey}.
 */
import { quotedList } from '../../shared/excerpt';
import { createHash } from 'node:crypto';
import { ImportError } from './importError';

export type ImportKind = 'airtime' | 'data' | 'electricity' | 'cable' | 'contacts' | 'vendorLog' | 'recipients';
export type BulkKind = 'airtime' | 'data' | 'electricity' | 'cable';

export const IMPORT_KINDS: readonly ImportKind[] = ['airtime', 'data', 'electricity', 'cable', 'contacts', 'vendorLog', 'recipients'];

/** Fields of bulk purchase and contact sheets, plus the log-entry fields of the spec (vendorLog). */
export type FieldKey =
  | 'phone'
  | 'amount'
  | 'network'
  | 'productCode'
  | 'name'
  | 'reference'
  | 'meter'
  | 'smartcard'
  | 'disco'
  | 'vendType'
  | 'provider'
  | 'bouquet'
  | 'costCentre'
  // vendorLog (spec "Transaction log entry"): phone_number → phone, amount → amount, network → network
  | 'id'
  | 'transactionId'
  | 'partnerReference'
  | 'transactionCost'
  | 'commission'
  | 'type'
  | 'operator'
  | 'region'
  | 'description'
  | 'dataPlan'
  | 'status'
  | 'time'
  | 'createdAt'
  | 'updatedAt';

export const FIELD_KEYS: readonly FieldKey[] = [
  'phone',
  'amount',
  'network',
  'productCode',
  'name',
  'reference',
  'meter',
  'smartcard',
  'disco',
  'vendType',
  'provider',
  'bouquet',
  'costCentre',
  'id',
  'transactionId',
  'partnerReference',
  'transactionCost',
  'commission',
  'type',
  'operator',
  'region',
  'description',
  'dataPlan',
  'status',
  'time',
  'createdAt',
  'updatedAt',
];

/** Column index (0 = first column, A) per field; null when the file has no such column. */
export type ColumnMapping = Record<FieldKey, number | null>;

export interface FieldSpec {
  key: FieldKey;
  /** Label for the mapping UI and error messages. */
  label: string;
  required: boolean;
}

const LABELS: Record<FieldKey, string> = {
  phone: 'Phone',
  amount: 'Amount',
  network: 'Network',
  productCode: 'Product code',
  name: 'Name',
  reference: 'Reference',
  meter: 'Meter number',
  smartcard: 'Smartcard number',
  disco: 'Disco',
  vendType: 'Meter type',
  provider: 'Provider',
  bouquet: 'Bouquet code',
  costCentre: 'Cost centre',
  id: 'id',
  transactionId: 'transaction_id',
  partnerReference: 'partner_reference',
  transactionCost: 'transaction_cost',
  commission: 'commission',
  type: 'type',
  operator: 'operator',
  region: 'region',
  description: 'description',
  dataPlan: 'data_plan',
  status: 'status',
  time: 'time',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/** Fields per kind: required ones first, then optional. */
const KIND_FIELDS: Record<ImportKind, { required: FieldKey[]; optional: FieldKey[] }> = {
  airtime: { required: ['phone', 'amount'], optional: ['network', 'productCode', 'name', 'reference', 'costCentre'] },
  data: { required: ['phone', 'productCode'], optional: ['network', 'amount', 'name', 'reference', 'costCentre'] },
  electricity: { required: ['meter', 'disco', 'vendType', 'amount', 'phone'], optional: ['name', 'reference', 'costCentre'] },
  cable: { required: ['smartcard', 'bouquet', 'phone'], optional: ['provider', 'amount', 'name', 'reference', 'costCentre'] },
  contacts: { required: ['phone'], optional: ['name'] },
  // The recipients list (src/main/costCentres/recipients.ts): at least one of phone, meter, smartcard.
  recipients: { required: ['costCentre'], optional: ['phone', 'meter', 'smartcard', 'name'] },
  vendorLog: {
    required: ['phone', 'amount', 'status'],
    optional: [
      'id',
      'transactionId',
      'partnerReference',
      'transactionCost',
      'commission',
      'type',
      'network',
      'operator',
      'region',
      'description',
      'dataPlan',
      'time',
      'createdAt',
      'updatedAt',
    ],
  },
};

export function fieldsFor(kind: ImportKind): FieldSpec[] {
  const { required, optional } = KIND_FIELDS[kind];
  return [...required.map((key) => ({ key, label: LABELS[key], required: true })), ...optional.map((key) => ({ key, label: LABELS[key], required: false }))];
}

export function requiredFields(kind: ImportKind): FieldKey[] {
  return [...KIND_FIELDS[kind].required];
}

export function fieldLabel(field: FieldKey): string {
  return LABELS[field];
}

/** Spellings per field, best first (all already normalized: lower case letters and digits). */
const SYNONYMS: Record<FieldKey, string[]> = {
  phone: [
    'phone',
    'phonenumber',
    'phoneno',
    'phonenum',
    'msisdn',
    'mobile',
    'mobilenumber',
    'mobileno',
    'number',
    'recipient',
    'recipientnumber',
    'recipientphone',
    'beneficiaryphone',
    'beneficiarynumber',
    'customerphone',
    'customerphonenumber',
    'telephone',
    'telephonenumber',
    'tel',
    'gsm',
    'gsmnumber',
    'cellphone',
    'cell',
    'receivernumber',
    'phonenumbers',
    'numbers',
    'whatsappnumber',
  ],
  amount: ['amount', 'amountnaira', 'amountngn', 'amountn', 'value', 'airtimeamount', 'topupamount', 'rechargeamount', 'amountinnaira', 'naira', 'ngn', 'price', 'unitprice'],
  network: ['network', 'networkprovider', 'telco', 'mno', 'carrier', 'networkname'],
  productCode: ['productcode', 'plancode', 'dataplancode', 'bundlecode', 'plan', 'bundle', 'dataplan', 'databundle', 'product', 'code', 'datacode', 'planid', 'productid'],
  name: ['name', 'fullname', 'names', 'customername', 'contactname', 'beneficiaryname', 'recipientname', 'staffname', 'employeename', 'accountname'],
  reference: [
    'reference',
    'ref',
    'referenceno',
    'referencenumber',
    'yourreference',
    'clientreference',
    'staffid',
    'employeeid',
    'staffno',
    'narration',
    'note',
    'remark',
    'remarks',
  ],
  meter: ['meter', 'meternumber', 'meterno', 'metrenumber', 'metreno', 'meterid', 'meteraccount', 'meteraccountnumber', 'accountnumber', 'accountno'],
  smartcard: [
    'smartcard',
    'smartcardnumber',
    'smartcardno',
    'iuc',
    'iucnumber',
    'iucno',
    'decodernumber',
    'decoderno',
    'decoder',
    'cardnumber',
    'smartcardiuc',
    'smartcardiucnumber',
  ],
  disco: ['disco', 'discocode', 'distributioncompany', 'electricitycompany', 'electricityprovider', 'provider', 'biller', 'discoprovider'],
  vendType: ['vendtype', 'metertype', 'type', 'prepaidpostpaid', 'accounttype', 'paymenttype', 'meterkind'],
  provider: ['provider', 'cableprovider', 'tvprovider', 'cabletv', 'service', 'network', 'operator', 'cable'],
  bouquet: ['bouquet', 'bouquetcode', 'package', 'packagecode', 'plan', 'plancode', 'productcode', 'subscription', 'product', 'bouquetname'],
  costCentre: ['costcentre', 'costcenter', 'department', 'dept', 'unit', 'costcentrecode', 'costcentercode', 'departmentname', 'division', 'businessunit'],
  id: ['id', 'logid', 'transactionlogid'],
  transactionId: ['transactionid', 'transactionref', 'transactionreference', 'externalreference'],
  partnerReference: ['partnerreference', 'partnerref', 'reference', 'requestreference', 'ref'],
  transactionCost: ['transactioncost', 'cost', 'charged', 'amountcharged'],
  commission: ['commission'],
  type: ['type', 'transactiontype', 'product', 'service'],
  operator: ['operator'],
  region: ['region'],
  description: ['description', 'narration', 'details'],
  dataPlan: ['dataplan', 'plan', 'productcode'],
  status: ['status', 'transactionstatus', 'state'],
  time: ['time', 'transactiontime', 'date', 'datetime'],
  createdAt: ['createdat', 'created', 'createddate'],
  updatedAt: ['updatedat', 'updated', 'updateddate', 'lastupdated'],
};

/** Every spelling of every field: what makes a row look like a header row. */
const ALL_SYNONYMS = new Set<string>(Object.values(SYNONYMS).flat());

/** Longest header text looked at: every known spelling is far shorter (a cell may hold 32,767 characters). */
const HEADER_CHARS = 256;

/** Lower case, letters and digits only: `Phone No.` → `phoneno`, `₦ Amount` → `amount`. */
export function normalizeHeader(header: string): string {
  return (header.length > HEADER_CHARS ? header.slice(0, HEADER_CHARS) : header).toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** `Amount (₦)` → `amount`: the header without anything in brackets. */
function normalizeHeaderWithoutBrackets(header: string): string {
  return normalizeHeader((header.length > HEADER_CHARS ? header.slice(0, HEADER_CHARS) : header).replace(/\([^)]*\)|\[[^\]]*\]/g, ' '));
}

/** Whether a header cell text is a known column name (any kind). */
export function isKnownHeader(text: string): boolean {
  const n = normalizeHeader(text);
  return ALL_SYNONYMS.has(n) || ALL_SYNONYMS.has(normalizeHeaderWithoutBrackets(text));
}

export function emptyMapping(): ColumnMapping {
  const mapping = {} as ColumnMapping;
  for (const key of FIELD_KEYS) mapping[key] = null;
  return mapping;
}

export function detectMapping(headers: readonly string[], kind: ImportKind): ColumnMapping {
  const mapping = emptyMapping();
  const fields = [...KIND_FIELDS[kind].required, ...KIND_FIELDS[kind].optional];
  const normalized = headers.map((h) => normalizeHeader(h ?? ''));
  const withoutBrackets = headers.map((h) => normalizeHeaderWithoutBrackets(h ?? ''));
  const used = new Set<number>();
  // Pass 1: exact spellings, best spelling wins; pass 2: bracket-free; pass 3: header starts with a spelling.
  const passes: ((column: number, synonym: string) => boolean)[] = [
    (c, s) => normalized[c] === s,
    (c, s) => withoutBrackets[c] === s,
    (c, s) => s.length >= 4 && normalized[c].startsWith(s),
  ];
  for (const matches of passes) {
    // A field's first spelling is claimed before any field's second, so "Plan" in a cable sheet
    // goes to the bouquet and "Network" in a bulk sheet to the network.
    const maxRank = Math.max(...fields.map((f) => SYNONYMS[f].length));
    for (let rank = 0; rank < maxRank; rank++) {
      for (const field of fields) {
        if (mapping[field] !== null) continue;
        const synonym = SYNONYMS[field][rank];
        if (synonym === undefined) continue;
        for (let c = 0; c < headers.length; c++) {
          if (!used.has(c) && matches(c, synonym)) {
            mapping[field] = c;
            used.add(c);
            break;
          }
        }
      }
    }
  }
  return mapping;
}

/** Required fields of `kind` that `mapping` leaves unmapped. */
export function missingFields(mapping: ColumnMapping, kind: ImportKind): FieldKey[] {
  return KIND_FIELDS[kind].required.filter((f) => mapping[f] === null || mapping[f] === undefined);
}

/** Throws a `missing_column` ImportError naming the missing columns and the columns the file has. */
export function assertMappingComplete(mapping: ColumnMapping, kind: ImportKind, headers: readonly string[]): void {
  const missing = missingFields(mapping, kind);
  if (missing.length === 0) return;
  const names = missing.map((f) => fieldLabel(f));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const named = headers.map((h) => h.trim()).filter((h) => h !== '');
  const present = named.length > 0 ? quotedList(named) : 'none';
  throw new ImportError(
    'missing_column',
    `No ${list} column found (the file's columns are: ${present}). Rename the column heading to ${names.map((n) => `"${n}"`).join(' / ')}, or choose the column in the column mapping, then import again.`,
  );
}

/** A stable key for a set of headers, so a mapping chosen once is offered for the next file with the same columns. */
export function headersKey(headers: readonly string[]): string {
  const normalized = headers.map((h) => normalizeHeader(h ?? ''));
  while (normalized.length > 0 && normalized[normalized.length - 1] === '') normalized.pop();
  return createHash('sha256').update(normalized.join('\u001f')).digest('hex').slice(0, 32);
}
