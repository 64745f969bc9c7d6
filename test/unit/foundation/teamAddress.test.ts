/**
 * The join form's address (Settings → Team): the server and the role from their own fields, and a
 * password typed into the server field refused in the form — it never reaches an address.
 */
import { describe, expect, it } from 'vitest';
import { teamAddress } from '../../../src/shared/teamAddress';

describe('the team address the join form sends', () => {
  it('joins the role to the server, with or without postgres:// and with sslmode', () => {
    expect(teamAddress('db.example.ng:5432/finance_team', 'ada')).toEqual({ url: 'postgres://ada@db.example.ng:5432/finance_team' });
    expect(teamAddress(' postgresql://db.example.ng/finance_team?sslmode=verify-full ', 'ada')).toEqual({ url: 'postgres://ada@db.example.ng/finance_team?sslmode=verify-full' });
    expect(teamAddress('127.0.0.1:5433/postgres', 'O’Neil finance')).toEqual({ url: 'postgres://O%E2%80%99Neil%20finance@127.0.0.1:5433/postgres' });
  });

  it('refuses a server holding a role or a password, so no password is put in an address', () => {
    const withPassword = teamAddress('postgres://ada:s3cret@db.example.ng:5432/finance_team', 'ada');
    expect(withPassword).toEqual({ problem: expect.stringContaining('your role and password go in their own fields') });
    expect(JSON.stringify(withPassword)).not.toContain('s3cret');
    expect(teamAddress('ada@db.example.ng/finance', 'ada')).toHaveProperty('problem');
  });

  it('asks for the database when only a server is given', () => {
    expect(teamAddress('db.example.ng:5432', 'ada')).toEqual({ problem: expect.stringContaining('HOST:PORT/DATABASE') });
    expect(teamAddress('   ', 'ada')).toEqual({ problem: expect.stringContaining('Give the server and database') });
  });
});
