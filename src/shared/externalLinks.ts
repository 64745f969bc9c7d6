/**
 * The web addresses vendesk itself shows as links, and the one rule for opening a link outside the
 * app: the Electron shell hands a URL to the system browser only when it is exactly one of these.
 * Any other address — whatever a compromised page asks for — stays closed. vendesk shows no outside
 * links today, so the list is empty; a page that adds one adds it here.
 */
export const EXTERNAL_LINKS: readonly string[] = [];

/** Whether `url` may be opened in the system browser: https, no credentials, exactly a listed address. */
export function isAllowedExternalUrl(url: string, allowed: readonly string[] = EXTERNAL_LINKS): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '') return false;
  return allowed.some((a) => {
    try {
      return new URL(a).href === u.href;
    } catch {
      return false;
    }
  });
}
