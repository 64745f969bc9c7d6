import { describe, expect, it } from 'vitest';
import { excerpt, quotedList } from './excerpt';

describe('text from a file, shortened before it goes into a message', () => {
  it('keeps short text whole, up to exactly the limit', () => {
    expect(excerpt('Ada Obi')).toBe('Ada Obi');
    expect(excerpt('a'.repeat(40))).toBe('a'.repeat(40));
  });

  it('cuts longer text to 39 characters, an ellipsis and its length', () => {
    expect(excerpt('a'.repeat(41))).toBe(`${'a'.repeat(39)}… (41 characters)`);
    expect(excerpt('b'.repeat(32_767))).toBe(`${'b'.repeat(39)}… (32,767 characters)`);
    expect(excerpt('abcdefghij', 5)).toBe('abcd… (10 characters)');
    expect(excerpt('abcdefghij', 5, false)).toBe('abcd…');
  });

  it('never splits a character written as two UTF-16 units', () => {
    // 🙂 is two units: cutting after the first would leave half a character.
    expect(excerpt('abc🙂defgh', 5, false)).toBe('abc…');
    expect(excerpt('ab🙂defgh', 5, false)).toBe('ab🙂…');
    // The ends of the high-surrogate range: U+10000 starts with 0xD800, U+10FFFF with 0xDBFF.
    expect(excerpt('abc\u{10000}defgh', 5, false)).toBe('abc…');
    expect(excerpt('abc\u{10FFFF}defgh', 5, false)).toBe('abc…');
  });

  it('lists at most ten quoted items, then how many more', () => {
    const items = Array.from({ length: 12 }, (_, i) => `r${i + 1}`);
    expect(quotedList(items)).toBe('"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10" and 2 more');
    expect(quotedList(['x', 'y'])).toBe('"x", "y"');
    expect(quotedList([])).toBe('');
    expect(quotedList(['a', 'b', 'c'], 2)).toBe('"a", "b" and 1 more');
  });

  it('stops once about 300 characters are shown, each item an excerpt', () => {
    const long = 'L'.repeat(100);
    const shownItem = `"${'L'.repeat(39)}… (100 characters)"`; // 59 characters, 61 with the separator
    const items = Array.from({ length: 8 }, () => long);
    // 5 items make 305 (> 300): a sixth is not added.
    expect(quotedList(items)).toBe(`${Array.from({ length: 5 }, () => shownItem).join(', ')} and 3 more`);
    expect(quotedList(items, 10, 61)).toBe(`${shownItem}, ${shownItem} and 6 more`);
    // The first item is always shown, however long.
    expect(quotedList([long], 10, 0)).toBe(shownItem);
  });
});
