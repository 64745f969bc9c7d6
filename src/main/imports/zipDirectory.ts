/**
 * Just enough of the ZIP format to read an .xlsx: list the entries from the central directory
 * (declared sizes, encryption flag), read one small entry whole (xl/workbook.xml for sheet
 * names), and stream a large one (a worksheet) while checking that it never inflates beyond
 * what it declares. This is what turns a damaged file or a zip bomb into a clear error instead
 * of a crash, a hang or a machine out of memory.
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { ImportError } from './importError';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_ENTRIES = 10_000;

function damaged(detail: string): ImportError {
  return new ImportError(
    'corrupt',
    `The workbook is damaged or incomplete (${detail}). Open it in Excel or LibreOffice, save it again as .xlsx (or CSV), and import the new file.`,
  );
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

/** Lists the entries of the zip file open in `handle` (of `fileSize` bytes). */
export async function readZipDirectory(handle: FileHandle, fileSize: number): Promise<ZipEntry[]> {
  const tailLength = Math.min(fileSize, 22 + 0xffff);
  const tailStart = fileSize - tailLength;
  const tail = await readAt(handle, tailStart, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw damaged('no zip directory at the end of the file; it may have been cut short while copying');
  let entryCount = tail.readUInt16LE(eocd + 10);
  let directorySize = tail.readUInt32LE(eocd + 12);
  let directoryOffset = tail.readUInt32LE(eocd + 16);
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR_SIGNATURE) throw damaged('bad zip64 directory');
    const zip64Offset = Number(tail.readBigUInt64LE(locator + 8));
    if (zip64Offset + 56 > fileSize) throw damaged('bad zip64 directory');
    const record = await readAt(handle, zip64Offset, 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw damaged('bad zip64 directory');
    entryCount = Number(record.readBigUInt64LE(32));
    directorySize = Number(record.readBigUInt64LE(40));
    directoryOffset = Number(record.readBigUInt64LE(48));
  }
  if (entryCount > MAX_ENTRIES) {
    throw new ImportError(
      'zip_bomb',
      `The workbook claims ${entryCount} internal parts, far more than a spreadsheet has; it was not opened for safety. Save the data as a new .xlsx or CSV and import that.`,
    );
  }
  if (directoryOffset + directorySize > fileSize || directorySize > 64 * 1024 * 1024) throw damaged('zip directory points outside the file');
  const directory = await readAt(handle, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < entryCount; i++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw damaged('zip directory is malformed');
    const flags = directory.readUInt16LE(p + 8);
    const method = directory.readUInt16LE(p + 10);
    let compressedSize = directory.readUInt32LE(p + 20);
    let uncompressedSize = directory.readUInt32LE(p + 24);
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    let localHeaderOffset = directory.readUInt32LE(p + 42);
    const name = directory.toString('utf8', p + 46, p + 46 + nameLength);
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = directory.readUInt16LE(e);
      const size = directory.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (uncompressedSize === 0xffffffff && q + 8 <= e + 4 + size) {
          uncompressedSize = Number(directory.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff && q + 8 <= e + 4 + size) {
          compressedSize = Number(directory.readBigUInt64LE(q));
          q += 8;
        }
        if (localHeaderOffset === 0xffffffff && q + 8 <= e + 4 + size) {
          localHeaderOffset = Number(directory.readBigUInt64LE(q));
        }
      }
      e += 4 + size;
    }
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset });
    p = extraEnd + commentLength;
  }
  return entries;
}

/** Total and per-entry declared sizes that no real spreadsheet reaches (a zip bomb does). */
export const MAX_TOTAL_UNCOMPRESSED = 2 * 1024 * 1024 * 1024;
const MAX_RATIO = 200;
const RATIO_APPLIES_ABOVE = 50 * 1024 * 1024;

export function zipBombError(detail: string): ImportError {
  return new ImportError(
    'zip_bomb',
    `The workbook would expand to ${detail} when opened, far more than any real spreadsheet; it was not opened, for safety. If the file is genuine, save the data as CSV and import that.`,
  );
}

/** Throws unless the declared sizes are plausible for a spreadsheet. */
export function checkDeclaredSizes(entries: readonly ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    if ((entry.flags & 1) !== 0) {
      throw new ImportError(
        'encrypted',
        'The workbook is password-protected. Open it in Excel or LibreOffice, remove the password (File › Info › Protect Workbook, or save without a password), save as .xlsx or CSV, and import again.',
      );
    }
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > RATIO_APPLIES_ABOVE && ratio > MAX_RATIO) {
      throw zipBombError(`${Math.round(entry.uncompressedSize / 1024 / 1024)} MB from ${entry.compressedSize} bytes`);
    }
  }
  if (total > MAX_TOTAL_UNCOMPRESSED) throw zipBombError(`${Math.round(total / 1024 / 1024)} MB`);
}

async function dataStart(handle: FileHandle, entry: ZipEntry): Promise<number> {
  const header = await readAt(handle, entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw damaged(`part ${entry.name} is missing`);
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/** Reads a small entry whole (e.g. xl/workbook.xml), refusing to inflate beyond `maxBytes`. */
export async function readZipEntryText(handle: FileHandle, entry: ZipEntry, maxBytes = 16 * 1024 * 1024): Promise<string> {
  if (entry.uncompressedSize > maxBytes) throw zipBombError(`${entry.uncompressedSize} bytes in ${entry.name}`);
  const start = await dataStart(handle, entry);
  const compressed = await readAt(handle, start, entry.compressedSize);
  if (entry.method === 0) return compressed.toString('utf8');
  if (entry.method !== 8) throw damaged(`part ${entry.name} uses an unknown compression method`);
  try {
    return inflateRawSync(compressed, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (error) {
    if (error instanceof RangeError) throw zipBombError(`more than ${maxBytes} bytes in ${entry.name}`);
    throw damaged(`part ${entry.name} cannot be decompressed`);
  }
}

/**
 * The inflated bytes of an entry, chunk by chunk, never more than it declares nor than `cap`
 * (a lying size is how a zip bomb gets past a directory check). Stopping early (break, throw)
 * closes the file.
 */
export async function* inflateZipEntry(path: string, handle: FileHandle, entry: ZipEntry, cap: number): AsyncGenerator<Buffer> {
  if (entry.method !== 0 && entry.method !== 8) throw damaged(`part ${entry.name} uses an unknown compression method`);
  if (entry.uncompressedSize > cap) throw zipBombError(`more than ${Math.round(cap / 1024 / 1024)} MB in ${entry.name}`);
  if (entry.compressedSize === 0) return;
  const start = await dataStart(handle, entry);
  const source = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 1 << 20 });
  const inflate = entry.method === 8 ? createInflateRaw({ chunkSize: 256 * 1024 }) : null;
  const chunks = inflate ? source.pipe(inflate) : source;
  source.on('error', (error) => inflate?.destroy(error));
  let produced = 0;
  try {
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      produced += chunk.length;
      if (produced > entry.uncompressedSize) throw zipBombError(`more than it declares in ${entry.name}`);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw damaged(`part ${entry.name} cannot be ${inflate ? 'decompressed' : 'read'}`);
  } finally {
    source.destroy();
    inflate?.destroy();
  }
}
