/**
 * Text encodings a CSV arrives in: UTF-8 (with or without BOM), UTF-16 LE/BE (Excel's
 * "Unicode text"), and Windows-1252 (older Excel "CSV" on Windows). Detection looks at a
 * sample from the start of the file; a UTF-8 guess is confirmed while decoding the rest.
 */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DetectedEncoding {
  encoding: TextEncodingName;
  /** Bytes of byte-order mark at the start of the file (0 when none). */
  bomLength: number;
}

export function detectEncoding(sample: Uint8Array): DetectedEncoding {
  if (sample.length >= 3 && sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) {
    return { encoding: 'utf-8', bomLength: 3 };
  }
  if (sample.length >= 2 && sample[0] === 0xff && sample[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (sample.length >= 2 && sample[0] === 0xfe && sample[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  const utf16 = guessUtf16WithoutBom(sample);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  return { encoding: isValidUtf8(sample, true) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

/** Mostly-ASCII UTF-16 text has a zero in every other byte. */
function guessUtf16WithoutBom(sample: Uint8Array): TextEncodingName | null {
  const n = Math.min(sample.length, 4096) & ~1;
  if (n < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < n; i += 2) {
    if (sample[i] === 0) zeroEven++;
    if (sample[i + 1] === 0) zeroOdd++;
  }
  const pairs = n / 2;
  if (zeroOdd > pairs * 0.4 && zeroEven < pairs * 0.05) return 'utf-16le';
  if (zeroEven > pairs * 0.4 && zeroOdd < pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * True when the bytes are valid UTF-8. With `truncatedTailOk`, a multi-byte sequence cut off
 * by the end of the sample is accepted (the sample ends wherever the read stopped).
 */
export function isValidUtf8(bytes: Uint8Array, truncatedTailOk = false): boolean {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) need = 2;
    else if (b >= 0xf0 && b <= 0xf4) need = 3;
    else return false;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return truncatedTailOk;
      if ((bytes[i + k] & 0xc0) !== 0x80) return false;
    }
    i += need + 1;
  }
  return true;
}

/** True when the sample looks like binary data rather than text (NUL bytes in 8-bit text). */
export function looksBinary(sample: Uint8Array, encoding: TextEncodingName): boolean {
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return false;
  const n = Math.min(sample.length, 8192);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const b = sample[i];
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) controls++;
  }
  return controls > n * 0.1;
}
