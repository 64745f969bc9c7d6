/**
 * Deterministic random data: a seeded PRNG and the draws made from it (an item of a list, a run
 * of digits, a network by weight, a mobile number of a network). The sandbox seeds its demo
 * history with it and bench/generate builds spreadsheets and vendor exports with it, so the same
 * seed always gives the same data. Each draw takes a fixed number of values from the PRNG.
 */
import type { Network } from '../shared/phone';

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The common four-digit prefixes of each network's mobile numbers, most used first. */
export const MOBILE_PREFIXES: Record<Network, readonly string[]> = {
  MTN: ['0803', '0806', '0703', '0706', '0813', '0816', '0810', '0814', '0903', '0906'],
  AIRTEL: ['0802', '0808', '0708', '0812', '0701', '0902', '0901', '0907'],
  GLOBACOM: ['0805', '0807', '0705', '0815', '0811', '0905'],
  '9MOBILE': ['0809', '0817', '0818', '0909', '0908'],
};

export interface RandomDraws {
  /** One value of the PRNG, in [0, 1). */
  random: () => number;
  /** An item of a non-empty list (one value). */
  pick<T>(list: readonly T[]): T;
  /** `count` decimal digits (one value each). */
  digits(count: number): string;
  /** A network drawn by the given weights, which should add up to 1 (one value); MTN past the end. */
  network(weights: readonly (readonly [Network, number])[]): Network;
  /** A local-form mobile number of the network: a prefix and 7 digits (8 values). */
  mobileNumber(network: Network): string;
}

export function randomDraws(random: () => number): RandomDraws {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const digits = (count: number): string => {
    let s = '';
    for (let i = 0; i < count; i++) s += String(Math.floor(random() * 10));
    return s;
  };
  return {
    random,
    pick,
    digits,
    network(weights) {
      let x = random();
      for (const [network, weight] of weights) if ((x -= weight) < 0) return network;
      return 'MTN';
    },
    mobileNumber: (network) => pick(MOBILE_PREFIXES[network]) + digits(7),
  };
}
