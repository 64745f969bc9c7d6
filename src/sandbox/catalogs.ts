/**
 * The sandbox's product catalogs: real Nigerian networks, bundles, bouquets and distribution
 * companies with realistic prices. Product and voucher codes are case-sensitive and are what
 * purchases must submit unchanged.
 */
import type { Network } from '../shared/phone';
import type { AirtimeProduct, CableBouquet, DataPlan, ElectricityProvider } from '../shared/wire';

const LOGO_BASE = 'https://sandbox.vendesk.local/logos';

export const NETWORK_LOGOS: Record<Network, string> = {
  MTN: `${LOGO_BASE}/mtn.png`,
  AIRTEL: `${LOGO_BASE}/airtel.png`,
  GLOBACOM: `${LOGO_BASE}/glo.png`,
  '9MOBILE': `${LOGO_BASE}/9mobile.png`,
};

/** Fixed commission rates (basis points of the face amount) per network, for airtime and data. */
export const AIRTIME_COMMISSION_BP: Record<Network, number> = { MTN: 300, AIRTEL: 350, GLOBACOM: 400, '9MOBILE': 400 };
export const DATA_COMMISSION_BP: Record<Network, number> = { MTN: 200, AIRTEL: 250, GLOBACOM: 300, '9MOBILE': 300 };

export const AIRTIME_CATALOG: readonly AirtimeProduct[] = [
  {
    id: 1,
    network: 'MTN',
    operator: 'MTN Nigeria',
    region: '',
    productCode: 'MTN-VTU',
    productGroup: 'VTU',
    voucherCode: 'MTNV1',
    minAmount: 100,
    maxAmount: 50000,
    networkLogo: NETWORK_LOGOS.MTN,
  },
  {
    id: 2,
    network: 'AIRTEL',
    operator: 'Airtel Nigeria',
    region: '',
    productCode: 'AIRTEL-VTU',
    productGroup: 'VTU',
    voucherCode: 'AIRV1',
    minAmount: 100,
    maxAmount: 50000,
    networkLogo: NETWORK_LOGOS.AIRTEL,
  },
  {
    id: 3,
    network: 'GLOBACOM',
    operator: 'Globacom',
    region: '',
    productCode: 'GLO-VTU',
    productGroup: 'VTU',
    voucherCode: 'GLOV1',
    minAmount: 100,
    maxAmount: 20000,
    networkLogo: NETWORK_LOGOS.GLOBACOM,
  },
  {
    id: 4,
    network: '9MOBILE',
    operator: 'EMTS (9mobile)',
    region: '',
    productCode: '9MOBILE-VTU',
    productGroup: 'VTU',
    voucherCode: '9MBV1',
    minAmount: 100,
    maxAmount: 20000,
    networkLogo: NETWORK_LOGOS['9MOBILE'],
  },
];

type PlanSeed = [productCode: string, description: string, amount: number, dataValueMb: number, group: string];

const PLAN_SEEDS: Record<Network, PlanSeed[]> = {
  MTN: [
    ['MTN-100MB-1D', 'MTN 100MB Daily Plan - 1 day', 100, 100, 'Daily'],
    ['MTN-1GB-1D', 'MTN 1GB Daily Plan - 1 day', 350, 1024, 'Daily'],
    ['MTN-2.5GB-2D', 'MTN 2.5GB - 2 days', 900, 2560, 'Daily'],
    ['MTN-1GB-7D', 'MTN 1GB Weekly Plan - 7 days', 800, 1024, 'Weekly'],
    ['MTN-6GB-7D', 'MTN 6GB Weekly Plan - 7 days', 2500, 6144, 'Weekly'],
    ['MTN-2GB-30D', 'MTN 2GB Monthly Plan - 30 days', 1500, 2048, 'Monthly'],
    ['MTN-3.5GB-30D', 'MTN 3.5GB Monthly Plan - 30 days', 2500, 3584, 'Monthly'],
    ['MTN-10GB-30D', 'MTN 10GB Monthly Plan - 30 days', 4500, 10240, 'Monthly'],
    ['MTN-20GB-30D', 'MTN 20GB Monthly Plan - 30 days', 7500, 20480, 'Monthly'],
    ['MTN-75GB-30D', 'MTN 75GB Monthly Plan - 30 days', 20000, 76800, 'Monthly'],
  ],
  AIRTEL: [
    ['AIRTEL-150MB-1D', 'Airtel 150MB Daily - 1 day', 100, 150, 'Daily'],
    ['AIRTEL-1GB-1D', 'Airtel 1GB Daily - 1 day', 350, 1024, 'Daily'],
    ['AIRTEL-1.5GB-7D', 'Airtel 1.5GB Weekly - 7 days', 1000, 1536, 'Weekly'],
    ['AIRTEL-2GB-30D', 'Airtel 2GB Monthly - 30 days', 1500, 2048, 'Monthly'],
    ['AIRTEL-4GB-30D', 'Airtel 4GB Monthly - 30 days', 2500, 4096, 'Monthly'],
    ['AIRTEL-10GB-30D', 'Airtel 10GB Monthly - 30 days', 4000, 10240, 'Monthly'],
    ['AIRTEL-18GB-30D', 'Airtel 18GB Monthly - 30 days', 6000, 18432, 'Monthly'],
    ['AIRTEL-40GB-30D', 'Airtel 40GB Monthly - 30 days', 10000, 40960, 'Monthly'],
  ],
  GLOBACOM: [
    ['GLO-200MB-1D', 'Glo 200MB Daily - 1 day', 100, 200, 'Daily'],
    ['GLO-1GB-1D', 'Glo 1GB Daily - 1 day', 300, 1024, 'Daily'],
    ['GLO-2.5GB-2D', 'Glo 2.5GB - 2 days', 500, 2560, 'Daily'],
    ['GLO-1.8GB-14D', 'Glo 1.8GB - 14 days', 1000, 1843, 'Weekly'],
    ['GLO-5.8GB-30D', 'Glo 5.8GB Monthly - 30 days', 2500, 5939, 'Monthly'],
    ['GLO-10GB-30D', 'Glo 10GB Monthly - 30 days', 3000, 10240, 'Monthly'],
    ['GLO-18GB-30D', 'Glo 18GB Monthly - 30 days', 5000, 18432, 'Monthly'],
    ['GLO-50GB-30D', 'Glo 50GB Monthly - 30 days', 10000, 51200, 'Monthly'],
  ],
  '9MOBILE': [
    ['9MOBILE-100MB-1D', '9mobile 100MB Daily - 1 day', 100, 100, 'Daily'],
    ['9MOBILE-650MB-1D', '9mobile 650MB Daily - 1 day', 200, 650, 'Daily'],
    ['9MOBILE-1GB-7D', '9mobile 1GB Weekly - 7 days', 500, 1024, 'Weekly'],
    ['9MOBILE-1.5GB-30D', '9mobile 1.5GB Monthly - 30 days', 1200, 1536, 'Monthly'],
    ['9MOBILE-4.5GB-30D', '9mobile 4.5GB Monthly - 30 days', 2000, 4608, 'Monthly'],
    ['9MOBILE-11GB-30D', '9mobile 11GB Monthly - 30 days', 4000, 11264, 'Monthly'],
    ['9MOBILE-40GB-30D', '9mobile 40GB Monthly - 30 days', 10000, 40960, 'Monthly'],
  ],
};

const OPERATOR_BY_NETWORK: Record<Network, string> = {
  MTN: 'MTN Nigeria',
  AIRTEL: 'Airtel Nigeria',
  GLOBACOM: 'Globacom',
  '9MOBILE': 'EMTS (9mobile)',
};

/** Voucher codes: a short server tag per network and a running number (e.g. `MTNDV03`). */
const VOUCHER_TAG: Record<Network, string> = { MTN: 'MTNDV', AIRTEL: 'AIRDV', GLOBACOM: 'GLODV', '9MOBILE': '9MBDV' };

export const DATA_CATALOG: readonly DataPlan[] = (() => {
  const plans: DataPlan[] = [];
  let id = 101;
  for (const network of ['MTN', 'AIRTEL', 'GLOBACOM', '9MOBILE'] as const) {
    PLAN_SEEDS[network].forEach(([productCode, description, amount, dataValue, group], i) => {
      plans.push({
        id: id++,
        network,
        operator: OPERATOR_BY_NETWORK[network],
        productCode,
        productGroup: group,
        voucherCode: `${VOUCHER_TAG[network]}${String(i + 1).padStart(2, '0')}`,
        description,
        amount,
        dataValue,
        networkLogo: NETWORK_LOGOS[network],
      });
    });
  }
  return plans;
})();

export const CABLE_PROVIDERS = ['DSTV', 'GOTV', 'STARTIMES', 'SHOWMAX'] as const;
export type CableProvider = (typeof CABLE_PROVIDERS)[number];

export const CABLE_CATALOG: readonly CableBouquet[] = [
  { id: 201, network: 'DSTV', productCode: 'dstv-padi', description: 'DStv Padi', amount: 4400, percentage: 1.5 },
  { id: 202, network: 'DSTV', productCode: 'dstv-yanga', description: 'DStv Yanga', amount: 6000, percentage: 1.5 },
  { id: 203, network: 'DSTV', productCode: 'dstv-confam', description: 'DStv Confam', amount: 11000, percentage: 1.5 },
  { id: 204, network: 'DSTV', productCode: 'dstv79', description: 'DStv Compact', amount: 19000, percentage: 1.5 },
  { id: 205, network: 'DSTV', productCode: 'dstv7', description: 'DStv Compact Plus', amount: 30000, percentage: 1.5 },
  { id: 206, network: 'DSTV', productCode: 'dstv3', description: 'DStv Premium', amount: 44500, percentage: 1.5 },
  { id: 211, network: 'GOTV', productCode: 'gotv-smallie', description: 'GOtv Smallie', amount: 1900, percentage: 1.5 },
  { id: 212, network: 'GOTV', productCode: 'gotv-jinja', description: 'GOtv Jinja', amount: 3900, percentage: 1.5 },
  { id: 213, network: 'GOTV', productCode: 'gotv-jolli', description: 'GOtv Jolli', amount: 5800, percentage: 1.5 },
  { id: 214, network: 'GOTV', productCode: 'gotv-max', description: 'GOtv Max', amount: 8500, percentage: 1.5 },
  { id: 215, network: 'GOTV', productCode: 'gotv-supa', description: 'GOtv Supa', amount: 11400, percentage: 1.5 },
  { id: 216, network: 'GOTV', productCode: 'gotv-supa-plus', description: 'GOtv Supa+', amount: 16800, percentage: 1.5 },
  { id: 221, network: 'STARTIMES', productCode: 'nova', description: 'StarTimes Nova (Antenna)', amount: 2100, percentage: 2 },
  { id: 222, network: 'STARTIMES', productCode: 'basic', description: 'StarTimes Basic (Antenna)', amount: 4000, percentage: 2 },
  { id: 223, network: 'STARTIMES', productCode: 'smart', description: 'StarTimes Smart (Dish)', amount: 5100, percentage: 2 },
  { id: 224, network: 'STARTIMES', productCode: 'classic', description: 'StarTimes Classic (Antenna)', amount: 6000, percentage: 2 },
  { id: 225, network: 'STARTIMES', productCode: 'super', description: 'StarTimes Super (Dish)', amount: 9800, percentage: 2 },
  { id: 231, network: 'SHOWMAX', productCode: 'showmax-mobile', description: 'Showmax Mobile', amount: 1600, percentage: 1 },
  { id: 232, network: 'SHOWMAX', productCode: 'showmax-entertainment', description: 'Showmax Entertainment', amount: 3500, percentage: 1 },
  { id: 233, network: 'SHOWMAX', productCode: 'showmax-premier-league', description: 'Showmax Premier League Mobile', amount: 4200, percentage: 1 },
  { id: 234, network: 'SHOWMAX', productCode: 'showmax-pro', description: 'Showmax Pro', amount: 8400, percentage: 1 },
];

/** The eleven distribution companies, with their purchase ranges and commission. */
export const ELECTRICITY_CATALOG: readonly ElectricityProvider[] = [
  { id: 301, name: 'Ikeja Electric', productCode: 'IKEDC', description: 'Ikeja Electric (IKEDC) - Lagos mainland north', minAmount: 1000, maxAmount: 500000, percentage: 1.2 },
  {
    id: 302,
    name: 'Eko Electricity Distribution Company',
    productCode: 'EKEDC',
    description: 'Eko Electricity (EKEDC) - Lagos island and south',
    minAmount: 1000,
    maxAmount: 500000,
    percentage: 1.2,
  },
  {
    id: 303,
    name: 'Abuja Electricity Distribution Company',
    productCode: 'AEDC',
    description: 'AEDC - FCT, Niger, Kogi, Nasarawa',
    minAmount: 1000,
    maxAmount: 300000,
    percentage: 1.3,
  },
  {
    id: 304,
    name: 'Port Harcourt Electricity Distribution Company',
    productCode: 'PHED',
    description: 'PHED - Rivers, Bayelsa, Cross River, Akwa Ibom',
    minAmount: 1000,
    maxAmount: 300000,
    percentage: 1.5,
  },
  {
    id: 305,
    name: 'Ibadan Electricity Distribution Company',
    productCode: 'IBEDC',
    description: 'IBEDC - Oyo, Ogun, Osun, Kwara and parts of Niger, Ekiti, Kogi',
    minAmount: 500,
    maxAmount: 300000,
    percentage: 1.1,
  },
  {
    id: 306,
    name: 'Enugu Electricity Distribution Company',
    productCode: 'EEDC',
    description: 'EEDC - Enugu, Anambra, Imo, Abia, Ebonyi',
    minAmount: 1000,
    maxAmount: 300000,
    percentage: 1.4,
  },
  {
    id: 307,
    name: 'Kano Electricity Distribution Company',
    productCode: 'KEDCO',
    description: 'KEDCO - Kano, Katsina, Jigawa',
    minAmount: 500,
    maxAmount: 200000,
    percentage: 1.5,
  },
  { id: 308, name: 'Kaduna Electric', productCode: 'KAEDCO', description: 'Kaduna Electric - Kaduna, Kebbi, Sokoto, Zamfara', minAmount: 500, maxAmount: 200000, percentage: 1.5 },
  { id: 309, name: 'Jos Electricity Distribution', productCode: 'JED', description: 'JED - Plateau, Bauchi, Benue, Gombe', minAmount: 500, maxAmount: 200000, percentage: 1.5 },
  {
    id: 310,
    name: 'Benin Electricity Distribution Company',
    productCode: 'BEDC',
    description: 'BEDC - Edo, Delta, Ondo, Ekiti',
    minAmount: 1000,
    maxAmount: 300000,
    percentage: 1.4,
  },
  {
    id: 311,
    name: 'Yola Electricity Distribution Company',
    productCode: 'YEDC',
    description: 'YEDC - Adamawa, Taraba, Borno, Yobe',
    minAmount: 500,
    maxAmount: 200000,
    percentage: 1.5,
  },
];

export const DISCO_REGION: Record<string, string> = {
  IKEDC: 'Lagos',
  EKEDC: 'Lagos',
  AEDC: 'Abuja',
  PHED: 'Port Harcourt',
  IBEDC: 'Ibadan',
  EEDC: 'Enugu',
  KEDCO: 'Kano',
  KAEDCO: 'Kaduna',
  JED: 'Jos',
  BEDC: 'Benin City',
  YEDC: 'Yola',
};

/** Naira per kWh used to turn a prepaid amount into units (a band A style tariff). */
export const TARIFF_NAIRA_PER_KWH = 209.5;

export function findAirtime(productCode: string): AirtimeProduct | undefined {
  return AIRTIME_CATALOG.find((p) => p.productCode === productCode);
}
export function findDisco(productCode: string): ElectricityProvider | undefined {
  return ELECTRICITY_CATALOG.find((p) => p.productCode === productCode);
}
export function parseCableProvider(input: string): CableProvider | null {
  const up = input.trim().toUpperCase();
  return (CABLE_PROVIDERS as readonly string[]).includes(up) ? (up as CableProvider) : null;
}
