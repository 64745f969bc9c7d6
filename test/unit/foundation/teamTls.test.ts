/**
 * How vendesk reaches a team database: encrypted with the certificate checked (libpq's
 * `verify-full`) on any host but this computer, unless the address says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, teamClientConfig } from '../../../src/main/team/teamLink';

const ssl = (address: string) => teamClientConfig(address, 'not-used').ssl;

describe('the TLS of a team address', () => {
  it('checks the certificate and the server name on another host when the address says nothing', () => {
    expect(ssl('postgres://ada@db.example.ng:5432/finance_team')).toEqual({ rejectUnauthorized: true, servername: 'db.example.ng' });
    expect(ssl('postgres://ada@10.0.0.5/finance_team')).toEqual({ rejectUnauthorized: true });
    expect(ssl('postgres://ada@[2001:db8::1]:5432/finance_team')).toEqual({ rejectUnauthorized: true });
  });

  it('stays plain on this computer unless the address asks for TLS', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) {
      expect(ssl(`postgres://ada@${host}:5432/finance_team`), host).toBe(false);
    }
    expect(ssl('postgres://ada@localhost:5432/finance_team?sslmode=verify-full')).toEqual({ rejectUnauthorized: true, servername: 'localhost' });
    expect(isLoopbackHost('vm')).toBe(false);
  });

  it('does what the address says: disable, require, verify-ca, verify-full', () => {
    expect(ssl('postgres://ada@db.example.ng/t?sslmode=disable')).toBe(false);
    expect(ssl('postgres://ada@db.example.ng/t?sslmode=require')).toEqual({ rejectUnauthorized: false });
    const ca = ssl('postgres://ada@db.example.ng/t?sslmode=verify-ca') as { rejectUnauthorized: boolean; checkServerIdentity: () => undefined };
    expect(ca.rejectUnauthorized).toBe(true);
    expect(ca.checkServerIdentity()).toBeUndefined();
    expect(ssl('postgres://ada@db.example.ng/t?sslmode=verify-full')).toEqual({ rejectUnauthorized: true, servername: 'db.example.ng' });
  });

  it('refuses a mode it does not know rather than guessing', () => {
    expect(() => ssl('postgres://ada@db.example.ng/t?sslmode=prefer')).toThrow(/sslmode=prefer is not one vendesk knows/);
  });
});
