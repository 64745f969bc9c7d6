/**
 * Tokens must never reach logs, errors or files. Known tokens are registered here when they are
 * loaded and removed from any text that leaves the main side; `Bearer …` is always masked.
 */
const known = new Set<string>();

export function registerSecret(secret: string): void {
  if (secret.length >= 4) known.add(secret);
}

export function redactSecrets(text: string): string {
  let out = text.replace(/Bearer\s+[^\s"',]+/gi, 'Bearer [redacted]');
  for (const secret of known) out = out.split(secret).join('[redacted]');
  return out;
}
