import { describe, expect, it } from 'vitest';
import { EXTERNAL_LINKS, isAllowedExternalUrl } from './externalLinks';

const SHOWN = ['https://help.example.ng/vendesk/keyring'];

describe('isAllowedExternalUrl (what the desktop app hands to the system browser)', () => {
  it('opens exactly an address the app shows', () => {
    expect(isAllowedExternalUrl('https://help.example.ng/vendesk/keyring', SHOWN)).toBe(true);
    expect(isAllowedExternalUrl('https://HELP.example.ng/vendesk/keyring', SHOWN)).toBe(true);
  });

  it.each([
    'https://evil.example/',
    'https://help.example.ng/vendesk/keyring/../../phish',
    'https://help.example.ng/vendesk/keyring?next=https://evil.example',
    'https://help.example.ng/vendesk/keyring#x',
    'https://help.example.ng.evil.example/vendesk/keyring',
    'https://help.example.ng@evil.example/vendesk/keyring',
    'https://user:pw@help.example.ng/vendesk/keyring',
    'http://help.example.ng/vendesk/keyring',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://attacker/share',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isAllowedExternalUrl(url, SHOWN)).toBe(false);
  });

  it('opens nothing at all today: vendesk shows no outside links, so any https address a page asks for stays closed', () => {
    expect(EXTERNAL_LINKS).toEqual([]);
    expect(isAllowedExternalUrl('https://example.com/')).toBe(false);
  });
});
