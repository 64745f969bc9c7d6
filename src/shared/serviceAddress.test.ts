import { describe, expect, it } from 'vitest';
import { checkServiceAddress } from './serviceAddress';

/** The attack: a live API token sent where it can be read on the way, or with credentials in the address. */
describe('where a live API token may be sent', () => {
  it('accepts https:// anywhere, without a warning', () => {
    expect(checkServiceAddress('https://api.example.com')).toEqual({ ok: true, warning: null });
    expect(checkServiceAddress('  https://api.example.com/v1  ')).toEqual({ ok: true, warning: null });
  });

  it('accepts plain http:// only for this computer, with a warning', () => {
    const warning = 'Plain http:// on this computer: fine for a local test service, never for the real one (use its https:// address).';
    for (const address of ['http://127.0.0.1:8080', 'http://localhost:3000', 'http://LOCALHOST', 'http://[::1]:9000']) {
      expect(checkServiceAddress(address)).toEqual({ ok: true, warning });
    }
  });

  it('refuses plain http:// to another computer, naming it', () => {
    expect(checkServiceAddress('http://api.example.com')).toEqual({
      ok: false,
      reason:
        'A live service address must start with https:// (the API token would travel unencrypted to api.example.com). Plain http:// is accepted only for this computer (127.0.0.1 or localhost).',
    });
    // Loopback-looking names elsewhere are other computers.
    expect(checkServiceAddress('http://127.0.0.2').ok).toBe(false);
    expect(checkServiceAddress('http://localhost.example.com').ok).toBe(false);
  });

  it('refuses a user name or password in the address', () => {
    const reason = 'The service address must not carry a user name or password; the API token is entered on its own.';
    expect(checkServiceAddress('https://user:secret@api.example.com')).toEqual({ ok: false, reason });
    expect(checkServiceAddress('https://user@api.example.com')).toEqual({ ok: false, reason });
    expect(checkServiceAddress('https://:secret@api.example.com')).toEqual({ ok: false, reason });
  });

  it('refuses what is not a URL, and other schemes', () => {
    expect(checkServiceAddress('api.example.com')).toEqual({ ok: false, reason: 'Enter the service address as a full URL, like https://api.example.com' });
    expect(checkServiceAddress('ftp://api.example.com')).toEqual({ ok: false, reason: 'The service address must start with https://' });
    // The loopback exception is for plain http:// only.
    expect(checkServiceAddress('ftp://localhost')).toEqual({ ok: false, reason: 'The service address must start with https://' });
  });
});
