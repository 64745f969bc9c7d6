import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from './baseUrl';
import { countText, NOT_GIVEN } from './notGiven';
import { shortDigest } from './teamDigest';

describe('a service address as one string', () => {
  it('lower-cases the host, keeps the port and path, drops trailing slashes', () => {
    expect(normalizeBaseUrl('https://API.Example.COM:8443/v1//')).toBe('https://api.example.com:8443/v1');
    expect(normalizeBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(normalizeBaseUrl('http://127.0.0.1:4010')).toBe('http://127.0.0.1:4010');
  });

  it('trims what is not a URL rather than refusing it', () => {
    expect(normalizeBaseUrl('  not a url/// ')).toBe('not a url');
    expect(normalizeBaseUrl('api.example.com/v1/')).toBe('api.example.com/v1');
  });
});

describe('a figure the service did not give', () => {
  it('is said to be not given, never 0', () => {
    expect(NOT_GIVEN).toBe('not given by the service');
    expect(countText(null)).toBe('not given by the service');
    expect(countText(0)).toBe('0');
    expect(countText(1_234_567)).toBe('1,234,567');
  });
});

describe("a team job's digest as people compare it", () => {
  it('is its first 12 characters, or a dash when there is none', () => {
    expect(shortDigest('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).toBe('9f86d081884c');
    expect(shortDigest(null)).toBe('—');
    expect(shortDigest('')).toBe('—');
  });
});
