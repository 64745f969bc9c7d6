import { describe, expect, it } from 'vitest';
import { HIDDEN_CHARACTER, hiddenCharacterName, isEmojiGlue, visibleCharacter, visibleText } from './visibleText';

describe('characters a screen obeys or hides, made visible', () => {
  it('shows the controls that move the cursor, clear, hide or link as escapes', () => {
    expect(visibleText('\x1b[0m\r\x1b[2K2  08031111111\x1b[8m')).toBe('\\x1b[0m\\r\\x1b[2K2  08031111111\\x1b[8m');
    expect(visibleText('\x1b]8;;https://evil.example\x07click\x1b]8;;\x07')).toBe('\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07');
    expect(visibleText('a\nb\tc\x00d\x7fe')).toBe('a\\nb\\tc\\x00d\\x7fe');
    // C1 controls: U+009B is a CSI of its own to a terminal that reads them, U+009D an OSC.
    expect(visibleText('\u009b2K\u009d8;;x')).toBe('\\x9b2K\\x9d8;;x');
  });

  it('shows the characters that reorder or hide text', () => {
    expect(visibleText('payroll\u202Evsc.exe')).toBe('payroll\\u202evsc.exe');
    expect(visibleText('\u2066a\u2069\u200b\u00ad\ufeff\u2028')).toBe('\\u2066a\\u2069\\u200b\\xad\\ufeff\\u2028');
    // Tag characters hide text in plain sight; they are outside the BMP.
    expect(visibleText('ok\u{E0041}\u{E0042}')).toBe('ok\\u{e0041}\\u{e0042}');
  });

  it('leaves ordinary text alone, the Naira sign, accents and emoji included', () => {
    for (const text of ['Adébáyọ̀ Okafor', '₦5,000.00', 'Renée 👍🏽', 'C:\\Users\\ada', '']) expect(visibleText(text)).toBe(text);
    expect(HIDDEN_CHARACTER.test('₦5,000.00 for 08039999901')).toBe(false);
  });

  it('keeps what `keep` allows, such as the glue of emoji', () => {
    expect(visibleText('👩\u200d👧 ❤\ufe0f\u202e', isEmojiGlue)).toBe('👩\u200d👧 ❤\ufe0f\\u202e');
    expect(visibleText('a\nb\rc', (ch) => ch === '\n')).toBe('a\nb\\rc');
    expect(isEmojiGlue('\u200c')).toBe(false);
    expect(isEmojiGlue('\u{E0100}')).toBe(true);
  });

  it('names a hidden character for a person', () => {
    expect(hiddenCharacterName('\x1b')).toBe('ESC, U+001B');
    expect(hiddenCharacterName('\r')).toBe('carriage return, U+000D');
    expect(hiddenCharacterName('\u202e')).toBe('right-to-left override, U+202E');
    expect(hiddenCharacterName('\u{E0041}')).toBe('U+E0041');
    expect(visibleCharacter('\x01')).toBe('\\x01');
  });
});
