/**
 * Nigerian mobile numbers. One pure function normalizes every accepted spelling to the
 * 11-digit local form (`08031234567`); the importer, the client and the sandbox all use it.
 */
import { excerpt } from './excerpt';

export type Network = 'MTN' | 'AIRTEL' | 'GLOBACOM' | '9MOBILE';
export const NETWORKS: readonly Network[] = ['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE'];

/** How people name the networks: MTN, Airtel, Glo, 9mobile. */
export const NETWORK_LABEL: Record<Network, string> = { MTN: 'MTN', AIRTEL: 'Airtel', GLOBACOM: 'Glo', '9MOBILE': '9mobile' };

/** Four-digit (and five-digit, where a block was split) prefixes of the local form. */
const PREFIXES: Record<Network, readonly string[]> = {
  MTN: ['0703', '0704', '0706', '07025', '07026', '0803', '0806', '0810', '0813', '0814', '0816', '0903', '0906', '0913', '0916'],
  AIRTEL: ['0701', '0708', '0802', '0808', '0812', '0901', '0902', '0904', '0907', '0911', '0912'],
  GLOBACOM: ['0705', '0805', '0807', '0811', '0815', '0905', '0915'],
  '9MOBILE': ['0809', '0817', '0818', '0908', '0909'],
};

const PREFIX_TO_NETWORK = new Map<string, Network>();
for (const network of NETWORKS) for (const p of PREFIXES[network]) PREFIX_TO_NETWORK.set(p, network);

/** The shape of a Nigerian mobile number in local form: 0, then 7/8/9, then 0/1, then 8 digits. */
const LOCAL_MOBILE = /^0[789][01]\d{8}$/;

export type PhoneResult = { ok: true; phone: string } | { ok: false; reason: string };

/**
 * Accepts `08031234567`, `2348031234567`, `+2348031234567`, `8031234567` and the same with
 * spaces, dashes, dots or parentheses between digits. Returns the 11-digit local form.
 */
export function normalizePhone(input: string): PhoneResult {
  const raw = String(input ?? '').trim();
  if (raw === '') return { ok: false, reason: 'Phone number is empty' };
  const compact = raw.replace(/[\s\-.()]/g, '');
  if (!/^\+?\d+$/.test(compact)) {
    return { ok: false, reason: `${excerpt(raw)} is not a Nigerian mobile number (it contains characters other than digits)` };
  }
  let digits = compact.startsWith('+') ? compact.slice(1) : compact;
  if (compact.startsWith('+') && !digits.startsWith('234')) {
    return { ok: false, reason: `${excerpt(raw)} is not a Nigerian mobile number (country code is not +234)` };
  }
  if (digits.startsWith('234') && digits.length === 13) digits = '0' + digits.slice(3);
  else if (digits.length === 10 && /^[789]/.test(digits)) digits = '0' + digits;
  if (!LOCAL_MOBILE.test(digits)) {
    return {
      ok: false,
      reason: `${excerpt(raw)} is not a Nigerian mobile number (expected 11 digits like 08031234567, or 2348031234567)`,
    };
  }
  return { ok: true, phone: digits };
}

/** The network a local-form number was issued to, by prefix; null when the prefix is not known. */
export function networkOfPhone(localPhone: string): Network | null {
  return PREFIX_TO_NETWORK.get(localPhone.slice(0, 5)) ?? PREFIX_TO_NETWORK.get(localPhone.slice(0, 4)) ?? null;
}

/** Accepts the spellings users and the log endpoint use (`glo`, `Globacom`, `9mobile`, `etisalat`). */
export function parseNetwork(input: string): Network | null {
  const key = input
    .trim()
    .toUpperCase()
    .replace(/[\s_-]/g, '');
  switch (key) {
    case 'MTN':
      return 'MTN';
    case 'AIRTEL':
      return 'AIRTEL';
    case 'GLO':
    case 'GLOBACOM':
      return 'GLOBACOM';
    case '9MOBILE':
    case 'NINEMOBILE':
    case 'ETISALAT':
      return '9MOBILE';
    default:
      return null;
  }
}

/**
 * A network named in text as people write it (`MTN`, `Airtel`, `glo`, `Globacom`, `9mobile`,
 * `Etisalat`, `MTN NG`…): the one reading of a network's name, for a spreadsheet's cell and a
 * network typed in a form or on the command line alike. Null for empty text.
 */
export function networkFromText(text: string): { ok: true; value: Network } | { ok: false; reason: string } | null {
  if (text === '') return null;
  const direct = parseNetwork(text);
  if (direct) return { ok: true, value: direct };
  const key = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (key.startsWith('MTN')) return { ok: true, value: 'MTN' };
  if (key.startsWith('AIRTEL')) return { ok: true, value: 'AIRTEL' };
  if (key.startsWith('GLO')) return { ok: true, value: 'GLOBACOM' };
  if (key.startsWith('9MOBILE') || key.startsWith('ETISALAT') || key === 'T2' || key.startsWith('NINEMOBILE')) return { ok: true, value: '9MOBILE' };
  return { ok: false, reason: `${excerpt(text)} is not a network; write MTN, Airtel, Glo or 9mobile, or leave the cell empty to use the number's network` };
}
