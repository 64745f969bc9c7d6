/**
 * Message templates: placeholders `{{1}}`…`{{n}}`, numbered from 1 with none skipped, in any
 * order in the text. The indexes a template declares are DERIVED from its body here — never typed
 * by hand — and the same check runs live in the template form and again in the main process.
 */

export interface TemplateProblem {
  /** Stable for programs and tests. */
  code: 'empty_body' | 'gap' | 'zero' | 'malformed';
  message: string;
}

export interface TemplateAnalysis {
  /** Distinct placeholder numbers found, ascending. */
  placeholders: number[];
  /** What the service expects as `indexes`: "1".."n" as strings (empty when the body has none). */
  indexes: string[];
  problems: TemplateProblem[];
  ok: boolean;
}

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;
/** Things that look like a placeholder but are not one (`{{name}}`, `{{ }}`): the service refuses them. */
const MALFORMED = /\{\{(?!\s*\d+\s*\}\})[^{}]*\}\}/g;

export function analyzeTemplate(body: string): TemplateAnalysis {
  const problems: TemplateProblem[] = [];
  if (body.trim() === '') problems.push({ code: 'empty_body', message: 'Write the message text of the template.' });
  const found = new Set<number>();
  for (const m of body.matchAll(PLACEHOLDER)) found.add(Number(m[1]));
  const placeholders = [...found].sort((a, b) => a - b);
  if (found.has(0)) problems.push({ code: 'zero', message: 'Placeholders are numbered from {{1}}; {{0}} is not allowed.' });
  const numbered = placeholders.filter((n) => n > 0);
  const max = numbered.length ? numbered[numbered.length - 1] : 0;
  const missing: number[] = [];
  for (let i = 1; i <= max; i++) if (!found.has(i)) missing.push(i);
  if (missing.length) {
    const list =
      missing
        .slice(0, 5)
        .map((n) => `{{${n}}}`)
        .join(', ') + (missing.length > 5 ? ', …' : '');
    problems.push({
      code: 'gap',
      message: `The placeholders must run from {{1}} to {{${max}}} with none skipped; ${list} ${missing.length === 1 ? 'is' : 'are'} missing. Add ${missing.length === 1 ? 'it' : 'them'} or renumber the others.`,
    });
  }
  const malformed = [...body.matchAll(MALFORMED)].map((m) => m[0]);
  if (malformed.length) {
    problems.push({
      code: 'malformed',
      message: `${malformed
        .slice(0, 3)
        .map((s) => `"${s}"`)
        .join(', ')} ${malformed.length === 1 ? 'is' : 'are'} not a placeholder; write placeholders as {{1}}, {{2}}, … (two braces, a number).`,
    });
  }
  const indexes = problems.some((p) => p.code === 'gap' || p.code === 'zero') ? [] : numbered.map(String);
  return { placeholders, indexes, problems, ok: problems.length === 0 };
}

/** The text a recipient receives: `{{i}}` replaced by `values[i-1]` (missing values left as the placeholder). */
export function renderTemplate(body: string, values: readonly string[]): string {
  return body.replace(PLACEHOLDER, (whole, n: string) => {
    const v = values[Number(n) - 1];
    return v === undefined ? whole : v;
  });
}

/** `Salary Notice (May)` → `salary-notice-may`. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** `"otp, alerts , ,Payroll"` → `['otp', 'alerts', 'Payroll']`. */
export function parseUseCases(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}
