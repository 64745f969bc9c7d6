/** The short form of a team job's rows digest people compare (window, CLI): its first 12 hex characters. */
export function shortDigest(digest: string | null): string {
  return digest ? digest.slice(0, 12) : '—';
}
