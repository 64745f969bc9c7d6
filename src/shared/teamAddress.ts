/** The team database address the join form sends (Settings → Team). */

/**
 * The address the service is given: the server as typed (`HOST:PORT/DATABASE`, with or without
 * `postgres://`) and the role from its own field. A server holding `@` (a role, or role and
 * password) is refused in the form, so a password never ends up in an address.
 */
export function teamAddress(server: string, role: string): { url: string } | { problem: string } {
  const rest = server.trim().replace(/^postgres(ql)?:\/\//i, '');
  if (rest === '') return { problem: 'Give the server and database, e.g. db.example.ng:5432/finance_team.' };
  if (rest.includes('@')) return { problem: 'Give the server only (HOST:PORT/DATABASE): your role and password go in their own fields below.' };
  if (!/^[^/\s]+\/[^/\s]+$/.test(rest)) return { problem: 'Write it as HOST:PORT/DATABASE, e.g. db.example.ng:5432/finance_team.' };
  return { url: `postgres://${encodeURIComponent(role.trim())}@${rest}` };
}
