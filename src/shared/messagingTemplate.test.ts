import { describe, expect, it } from 'vitest';
import { analyzeTemplate, parseUseCases, renderTemplate, slugify } from './messagingTemplate';

describe('analyzeTemplate', () => {
  it('derives the indexes from the body, placeholders in any order', () => {
    expect(analyzeTemplate('Dear {{2}}, {{1}} was paid. Ref {{3}}; again {{1}}').indexes).toEqual(['1', '2', '3']);
    expect(analyzeTemplate('No placeholders at all').indexes).toEqual([]);
    expect(analyzeTemplate('Spaced {{ 1 }}').ok).toBe(true);
  });

  it('refuses a gap and names what is missing', () => {
    const a = analyzeTemplate('Hi {{1}}, see {{3}} and {{5}}');
    expect(a.ok).toBe(false);
    expect(a.indexes).toEqual([]);
    expect(a.problems[0]).toMatchObject({ code: 'gap' });
    expect(a.problems[0].message).toContain('{{2}}, {{4}} are missing');
  });

  it('refuses placeholders that do not start at 1, {{0}}, names and an empty body', () => {
    expect(analyzeTemplate('Hello {{2}}').problems.map((p) => p.code)).toEqual(['gap']);
    expect(analyzeTemplate('Hello {{0}} {{1}}').problems.map((p) => p.code)).toContain('zero');
    expect(analyzeTemplate('Hello {{name}}').problems.map((p) => p.code)).toEqual(['malformed']);
    expect(analyzeTemplate('   ').problems.map((p) => p.code)).toEqual(['empty_body']);
  });
});

describe('renderTemplate, slugify, parseUseCases', () => {
  it('fills values in placeholder order wherever they appear', () => {
    expect(renderTemplate('{{2}} owes {{1}}; {{2}}!', ['₦500', 'Ada'])).toBe('Ada owes ₦500; Ada!');
    expect(renderTemplate('Hi {{1}} {{2}}', ['Ada'])).toBe('Hi Ada {{2}}');
  });
  it('makes a slug from a name and a list from use cases', () => {
    expect(slugify('Salary Notice (May) — Lagos')).toBe('salary-notice-may-lagos');
    expect(parseUseCases(' payroll, alerts,,payroll ')).toEqual(['payroll', 'alerts']);
  });
});
