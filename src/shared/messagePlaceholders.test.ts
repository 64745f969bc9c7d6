import { describe, expect, it } from 'vitest';
import { columnFor, fillPlaceholders, parseMessageText } from './messagePlaceholders';

const ROW = { Name: 'Chiamaka Eze', Phone: '08031234567', 'Data allowance': '2GB', Month: 'November' };

describe('fillPlaceholders', () => {
  it('fills each placeholder with its column of the row, wherever and however often it appears', () => {
    expect(fillPlaceholders('Hello {name}, your {Month} data allowance of {Data allowance} has been sent', ROW)).toEqual({
      ok: true,
      text: 'Hello Chiamaka Eze, your November data allowance of 2GB has been sent',
    });
    expect(fillPlaceholders('{Name}/{NAME}/{ name }', ROW)).toEqual({ ok: true, text: 'Chiamaka Eze/Chiamaka Eze/Chiamaka Eze' });
  });

  it('matches a heading whatever its case and spaces, then ignoring punctuation', () => {
    expect(fillPlaceholders('{data   ALLOWANCE}', ROW)).toEqual({ ok: true, text: '2GB' });
    expect(fillPlaceholders('{Phone No}', { 'Phone No.': '0803' })).toEqual({ ok: true, text: '0803' });
    expect(fillPlaceholders('{Amount (N)}', { 'Amount (N)': '5,000', Amount: '1' })).toEqual({ ok: true, text: '5,000' });
  });

  it('writes \\{ and \\} as braces, and leaves other backslashes alone', () => {
    expect(fillPlaceholders('\\{ref\\}: {Name} \\ done', ROW)).toEqual({ ok: true, text: '{ref}: Chiamaka Eze \\ done' });
    expect(fillPlaceholders('No placeholders', {})).toEqual({ ok: true, text: 'No placeholders' });
  });

  it('puts a value in as plain text: braces in a value are never read as placeholders', () => {
    expect(fillPlaceholders('Hi {Name}', { Name: '{Phone}', Phone: '0803' })).toEqual({ ok: true, text: 'Hi {Phone}' });
  });

  it('names a placeholder no column matches, and an empty value, and fills nothing', () => {
    expect(fillPlaceholders('Hi {Name}, {Bonus} and {bonus}', ROW)).toEqual({ ok: false, problems: [], unknown: ['Bonus'], empty: [] });
    expect(fillPlaceholders('Hi {Name}, {Month}', { ...ROW, Month: '   ' })).toEqual({ ok: false, problems: [], unknown: [], empty: ['Month'] });
  });

  it('refuses a heading that two columns share', () => {
    expect(columnFor('Amount', ['Amount', 'amount'])).toEqual({ kind: 'ambiguous', indexes: [0, 1] });
    expect(fillPlaceholders('{Amount}', { Amount: '1', ' AMOUNT ': '2' })).toMatchObject({ ok: false, unknown: ['Amount'] });
  });
});

describe('parseMessageText', () => {
  it('lists each placeholder once, in the order it first appears', () => {
    expect(parseMessageText('{b} {A} {a} {B}')).toMatchObject({ ok: true, placeholders: ['b', 'A'] });
  });

  it('refuses what is not a placeholder, saying where and what to write', () => {
    const codes = (text: string) => {
      const parsed = parseMessageText(text);
      return parsed.ok ? [] : parsed.problems.map((p) => p.code);
    };
    expect(codes('Hello {name')).toEqual(['unclosed']);
    expect(codes('Hello name}')).toEqual(['stray_close']);
    expect(codes('Hello {}')).toEqual(['empty']);
    expect(codes('Hello {{name}}, {Month}')).toEqual(['nested']);
    expect(codes(`{${'x'.repeat(101)}}`)).toEqual(['too_long']);
    const nested = parseMessageText('Hello {{name}}');
    expect(nested.ok ? '' : nested.problems[0].message).toBe('"{{name}}" at character 7 is not a placeholder: write one pair of braces around a column\'s heading, like {name}.');
    const stray = parseMessageText('5} paid');
    expect(stray.ok ? '' : stray.problems[0].message).toBe('A "}" at character 2 closes no placeholder; write \\} for a brace in the message.');
  });

  it('refuses a character a screen hides or obeys, but keeps line breaks, tabs and emoji', () => {
    const esc = parseMessageText('Hi \u001b[2J{Name}');
    expect(esc.ok ? '' : esc.problems[0].message).toBe('The text holds a hidden character (ESC, U+001B) at character 4 that can change what a screen shows; type the text again.');
    expect(parseMessageText('Hi \u202e{Name}').ok).toBe(false);
    expect(fillPlaceholders('Hi {Name}\n\tThanks 👩‍👧 ❤️', ROW)).toEqual({ ok: true, text: 'Hi Chiamaka Eze\n\tThanks 👩‍👧 ❤️' });
  });
});
