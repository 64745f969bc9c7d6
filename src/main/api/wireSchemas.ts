/**
 * zod schemas of every response body the service sends, applied once at the edge of the client
 * (`VendingClient`). They follow `src/shared/wire.ts`; the schemas are lenient where the spec
 * says a field appears only "when available" (a missing number becomes 0, a missing string "").
 */
import { z } from 'zod';
import type {
  AccountBalance,
  AirtimeProduct,
  BatchAccepted,
  CableBouquet,
  CableResult,
  ContactsCreated,
  DataPlan,
  ElectricityProvider,
  ElectricityResult,
  EvidenceConfirmed,
  EvidenceSent,
  LogEntry,
  MeterValidation,
  MessageRecord,
  PageObject,
  PhonebookRecord,
  PhonebookWithContacts,
  RequeryResult,
  SenderIdRecord,
  SmartcardValidation,
  TemplateRecord,
} from '../../shared/wire';
import { parseNetwork, type Network } from '../../shared/phone';

const str = z.string().catch('');
const optStr = z.string().optional().default('');
const optNum = z.number().optional().default(0);
/** Accepts a number or a numeric string (`"1000"`), as services often drift between the two. */
const numeric = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const optNumeric = numeric.optional().default(0);

/** The envelope, with `data` left unparsed: the decoder decides how to read it. */
export const envelopeSchema = z.object({
  gatewayStatus: z.string(),
  gatewayMessage: z.string().optional().default(''),
  requestReference: z.string().optional().default(''),
  data: z.unknown(),
});
export type RawEnvelope = z.infer<typeof envelopeSchema>;

/** Network names as the service spells them; known spellings (`GLO`, `9mobile`) are canonicalised. */
const networkSchema = z.string().transform((s): Network => parseNetwork(s) ?? (s as Network));

export const airtimeProductSchema: z.ZodType<AirtimeProduct> = z.object({
  id: z.number(),
  network: networkSchema,
  operator: optStr,
  region: optStr,
  productCode: z.string(),
  productGroup: optStr,
  voucherCode: optStr,
  minAmount: numeric,
  maxAmount: numeric,
  networkLogo: optStr,
});

export const dataPlanSchema: z.ZodType<DataPlan> = z.object({
  id: z.number(),
  network: networkSchema,
  operator: optStr,
  productCode: z.string(),
  productGroup: optStr,
  voucherCode: optStr,
  description: optStr,
  amount: numeric,
  dataValue: optNumeric,
  networkLogo: optStr,
});

export const cableBouquetSchema: z.ZodType<CableBouquet> = z.object({
  id: z.number(),
  network: z.string(),
  productCode: z.string(),
  description: optStr,
  amount: numeric,
  percentage: optNumeric,
});

export const electricityProviderSchema: z.ZodType<ElectricityProvider> = z.object({
  id: z.number(),
  name: z.string(),
  productCode: z.string(),
  description: optStr,
  minAmount: numeric,
  maxAmount: numeric,
  percentage: optNumeric,
});

export const accountBalanceSchema: z.ZodType<AccountBalance> = z.object({
  AccountName: str,
  GlobalBalance: z.array(
    z.object({ Balance: numeric, Currency: z.string(), AccountNumber: optStr }),
  ),
});

export const meterValidationSchema: z.ZodType<MeterValidation> = z.object({
  name: z.string(),
  address: optStr,
  minAmount: optNumeric,
  outstanding: optNumeric,
});

export const smartcardValidationSchema: z.ZodType<SmartcardValidation> = z.object({
  name: z.string(),
  address: optStr,
  customerType: optStr,
  outstanding: optNumeric,
});

export const batchAcceptedSchema: z.ZodType<BatchAccepted> = z.object({
  message: optStr,
  references: z.array(z.string()),
});

export const electricityResultSchema: z.ZodType<ElectricityResult> = z.object({
  token: optStr,
  units: optNumeric,
  receiptNo: optStr,
  commission: optNumeric,
});

export const cableResultSchema: z.ZodType<CableResult> = z.object({
  smartcard: optStr,
  provider: optStr,
  bouquet: optStr,
  amount: optNumeric,
  commission: optNumeric,
});

export const requeryResultSchema: z.ZodType<RequeryResult> = z.object({
  status: z.enum(['SUCCESS', 'FAILED', 'PENDING']),
  reference: optStr,
  token: z.string().optional(),
  units: numeric.optional(),
});

export const logEntrySchema: z.ZodType<LogEntry> = z.object({
  id: z.number(),
  transaction_id: str,
  partner_reference: str,
  phone_number: str,
  amount: z.union([z.string(), z.number().transform((n) => String(n))]),
  transaction_cost: numeric,
  commission: numeric,
  type: z.enum(['AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV']),
  network: str,
  operator: str,
  region: str,
  description: str,
  data_plan: str,
  status: z.enum(['SUCCESS', 'FAILED', 'PENDING']),
  time: str,
  created_at: z.string(),
  updated_at: z.string(),
});

/** A page object of the service; missing links read as '' and missing items as none. */
function pageObjectSchema<T>(item: z.ZodType<T>) {
  return z.object({
    TotalPages: z.number(),
    CurrentPage: z.number(),
    TotalRecords: z.number(),
    NextPage: z.string().nullish().transform((v) => v ?? ''),
    PreviousPage: z.string().nullish().transform((v) => v ?? ''),
    Items: z.array(item).nullish().transform((v) => v ?? []),
  });
}

export const logPageSchema: z.ZodType<PageObject<LogEntry>> = pageObjectSchema(logEntrySchema);

// ---- Messaging (shapes of the sandbox, docs/sandbox.md) ----

const approvalSchema = z.record(z.string(), z.enum(['APPROVED', 'PENDING', 'REJECTED']));

export const senderIdSchema: z.ZodType<SenderIdRecord> = z.object({
  senderId: z.string(),
  approval: approvalSchema,
  createdAt: str,
});

export const templateSchema: z.ZodType<TemplateRecord> = z.object({
  id: z.union([z.string(), z.number().transform(String)]),
  body: z.string(),
  indexes: z.array(z.string()),
  name: z.string(),
  slug: optStr,
  useCase: optStr,
  approval: approvalSchema,
  createdAt: str,
});

export const messageSchema: z.ZodType<MessageRecord> = z.object({
  reference: z.string(),
  senderId: str,
  body: str,
  isBulk: z.boolean().catch(false),
  phoneBookId: z.number().nullish().transform((v) => v ?? null),
  recipients: z.array(z.string()).catch([]),
  recipientCount: optNum,
  pages: optNum,
  emails: z.array(z.string()).catch([]),
  smsCost: optNumeric,
  emailCost: optNumeric,
  totalCost: optNumeric,
  status: z.enum(['DELIVERED', 'SENT', 'FAILED']),
  templateId: z.union([z.string(), z.number().transform(String)]).nullish().transform((v) => v ?? null),
  createdAt: str,
});

export const evidenceSentSchema: z.ZodType<EvidenceSent> = z.object({
  reference: z.string(),
  receiverNumber: str,
  numberOfDigits: optNum,
  expiresAt: str,
  cost: optNumeric,
});

export const evidenceConfirmedSchema: z.ZodType<EvidenceConfirmed> = z.object({
  reference: z.string(),
  confirmed: z.literal(true),
  confirmedAt: str,
});

export const phonebookSchema: z.ZodType<PhonebookRecord> = z.object({
  id: z.number(),
  name: z.string(),
  description: optStr,
  contactCount: optNum,
  createdAt: str,
});

const contactSchema = z.object({
  id: z.number(),
  phoneBookId: z.number(),
  name: str,
  phoneNumber: z.string(),
  createdAt: str,
});

export const phonebookWithContactsSchema: z.ZodType<PhonebookWithContacts> = z.object({
  id: z.number(),
  name: z.string(),
  description: optStr,
  contactCount: optNum,
  createdAt: str,
  contacts: z.array(contactSchema).catch([]),
});

export const contactsCreatedSchema: z.ZodType<ContactsCreated> = z.object({
  phoneBookId: z.number(),
  added: optNum,
  skipped: optNum,
  contacts: z.array(contactSchema).catch([]),
});

/** Shape-agnostic: endpoints whose answer the app only passes through. */
export const anyDataSchema: z.ZodType<unknown> = z.unknown();

/** `/messageHistory`: a page object of messages (a bare array is read as one page). */
export const messageHistorySchema: z.ZodType<PageObject<MessageRecord>> = z.union([
  pageObjectSchema(messageSchema),
  z.array(messageSchema).transform((items) => ({
    TotalPages: items.length > 0 ? 1 : 0,
    CurrentPage: 1,
    TotalRecords: items.length,
    NextPage: '',
    PreviousPage: '',
    Items: items,
  })),
]);
