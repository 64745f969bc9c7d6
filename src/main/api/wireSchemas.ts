/**
 * zod schemas of every response body the service sends, applied once at the edge of the client
 * (`VendingClient`) for the shapes the spec shows. They follow `src/shared/wire.ts`; the schemas
 * are lenient where the spec says a field appears only "when available" (a missing number becomes
 * 0, a missing string "").
 */
import { z } from 'zod';
import type {
  AccountBalance,
  AirtimeProduct,
  BatchAccepted,
  CableBouquet,
  CableResult,
  DataPlan,
  ElectricityProvider,
  ElectricityResult,
  LogEntry,
  MeterValidation,
  PageObject,
  RequeryResult,
  SmartcardValidation,
} from '../../shared/wire';
import { parseNetwork, type Network } from '../../shared/phone';

const str = z.string().catch('');
const optStr = z.string().optional().default('');
/** Accepts a number or a numeric string (`"1000"`), as services often drift between the two. */
const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
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
  GlobalBalance: z.array(z.object({ Balance: numeric, Currency: z.string(), AccountNumber: optStr })),
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
    NextPage: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
    PreviousPage: z
      .string()
      .nullish()
      .transform((v) => v ?? ''),
    Items: z
      .array(item)
      .nullish()
      .transform((v) => v ?? []),
  });
}

export const logPageSchema: z.ZodType<PageObject<LogEntry>> = pageObjectSchema(logEntrySchema);

/** A log page asked for with `download=true`: the page's entries in the service's download-ready text, and the next page's link. */
export const logDownloadPageSchema = z.object({
  TotalPages: z.number(),
  TotalRecords: z.number(),
  NextPage: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  Download: z.string(),
});

export type LogDownloadPage = z.infer<typeof logDownloadPageSchema>;

// The messaging answers (shapes the spec does not show) are read by meaning: messagingAnswers.ts.
