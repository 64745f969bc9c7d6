/** Email addresses typed by people: a list separated by commas, semicolons, spaces or new lines. */

const EMAIL = /^[^\s@,;<>()[\]"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text.trim()) && text.trim().length <= 254;
}

export interface EmailList {
  /** Valid addresses, lower-cased, repeats dropped, in the order given. */
  emails: string[];
  /** What was typed but is not an address. */
  invalid: string[];
}

export function parseEmailList(text: string): EmailList {
  const emails: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    const p = part.trim();
    if (!p) continue;
    if (!isEmailAddress(p)) {
      invalid.push(p);
      continue;
    }
    const key = p.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      emails.push(key);
    }
  }
  return { emails, invalid };
}
