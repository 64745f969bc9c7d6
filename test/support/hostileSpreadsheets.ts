/**
 * Spreadsheets built to hurt a reader: a workbook whose rows reach column XFD, cell references
 * past it, the last row a sheet can have, millions of empty cells, one shared string of tens of
 * megabytes, XML nested a million deep, a thousand and more sheets, CSV files with a quote that
 * never closes or no line break at all, files whose extension lies. The XML is streamed into a
 * minimal zip writer, so a part of hundreds of megabytes costs this process almost nothing.
 */
import fs from 'node:fs';
import { constants, crc32, createDeflateRaw } from 'node:zlib';

/** A part's text, given whole or as chunks (a generator keeps a huge part out of memory). */
type PartText = string | Iterable<string>;

interface ZipPart {
  name: string;
  crc: number;
  size: number;
  data: Buffer;
}

async function deflatePart(name: string, text: PartText): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: constants.Z_BEST_SPEED });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  let size = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = async () => {
    if (pendingLength === 0) return;
    const bytes = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingLength = 0;
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await new Promise((r) => deflate.once('drain', r));
  };
  for (const piece of typeof text === 'string' ? [text] : text) {
    pending.push(piece);
    pendingLength += piece.length;
    if (pendingLength >= 1 << 20) await flush();
  }
  await flush();
  deflate.end();
  await done;
  return { name, crc: crc >>> 0, size, data: Buffer.concat(out) };
}

/** A zip record: `size` bytes, each [offset, width, value] written little-endian, the rest zero. */
function littleEndian(size: number, fields: [number, 2 | 4, number][]): Buffer {
  const record = Buffer.alloc(size);
  for (const [offset, width, value] of fields) {
    if (width === 2) record.writeUInt16LE(value, offset);
    else record.writeUInt32LE(value, offset);
  }
  return record;
}

/** Writes a zip of deflated parts (no zip64: every part stays under 4 GB). */
export async function writeZip(file: string, parts: { name: string; text: PartText }[]): Promise<void> {
  const deflated: ZipPart[] = [];
  for (const p of parts) deflated.push(await deflatePart(p.name, p.text));
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of deflated) {
    const name = Buffer.from(p.name, 'utf8');
    // Local header and central directory entry: version 2.0, deflate, CRC and sizes, name length.
    const local = littleEndian(30, [
      [0, 4, 0x04034b50],
      [4, 2, 20],
      [8, 2, 8],
      [14, 4, p.crc],
      [18, 4, p.data.length],
      [22, 4, p.size],
      [26, 2, name.length],
    ]);
    const entry = littleEndian(46, [
      [0, 4, 0x02014b50],
      [4, 2, 20],
      [6, 2, 20],
      [10, 2, 8],
      [16, 4, p.crc],
      [20, 4, p.data.length],
      [24, 4, p.size],
      [28, 2, name.length],
      [42, 4, offset],
    ]);
    central.push(entry, name);
    chunks.push(local, name, p.data);
    offset += 30 + name.length + p.data.length;
  }
  const directory = Buffer.concat(central);
  const end = littleEndian(22, [
    [0, 4, 0x06054b50],
    [8, 2, deflated.length],
    [10, 2, deflated.length],
    [12, 4, directory.length],
    [16, 4, offset],
  ]);
  fs.writeFileSync(file, Buffer.concat([...chunks, directory, end]));
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook of one sheet (or the sheets given) with the sheet XML (and shared strings) given. */
export async function writeWorkbook(file: string, sheetXml: PartText, options: { sharedStrings?: PartText; sheetNames?: string[]; workbookXml?: string } = {}): Promise<void> {
  const names = options.sheetNames ?? ['Sheet1'];
  const sheets = names.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const rels = names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`).join('');
  const parts: { name: string; text: PartText }[] = [
    {
      name: '[Content_Types].xml',
      text: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      text: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      text: options.workbookXml ?? `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets>${sheets}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      text: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}${options.sharedStrings !== undefined ? `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', text: sheetXml },
  ];
  if (options.sharedStrings !== undefined) parts.push({ name: 'xl/sharedStrings.xml', text: options.sharedStrings });
  await writeZip(file, parts);
}

const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData>`;
const SHEET_CLOSE = '</sheetData></worksheet>';
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const HEADER_ROW = `<row r="1">${inline('A1', 'Phone')}${inline('B1', 'Amount')}</row>`;
const dataRow = (r: number) => `<row r="${r}">${inline(`A${r}`, '08031234567')}<c r="B${r}"><v>500</v></c></row>`;

function* rows(count: number, row: (r: number) => string, first = 1): Generator<string> {
  yield SHEET_OPEN;
  for (let r = first; r < first + count; r++) yield row(r);
  yield SHEET_CLOSE;
}

/** Every hostile spreadsheet, by file name, and what a reader must answer. */
export interface HostileFile {
  name: string;
  /** What it is, for the test's title. */
  what: string;
  write(file: string): Promise<void>;
}

export const HOSTILE_FILES: HostileFile[] = [
  {
    name: 'xfd-rows.xlsx',
    what: 'a Phone, Amount header and 40,000 rows each with one cell in column XFD (the 548 KB file that took 4.3 GB)',
    write: (file) =>
      writeWorkbook(
        file,
        rows(40_001, (r) => (r === 1 ? HEADER_ROW : `<row r="${r}"><c r="XFD${r}"><v>${r}</v></c></row>`)),
      ),
  },
  {
    name: 'xfd-header.xlsx',
    what: 'a header reaching column XFD and 40,000 data rows reaching it too',
    write: (file) =>
      writeWorkbook(
        file,
        rows(40_001, (r) =>
          r === 1
            ? `<row r="1">${inline('A1', 'Phone')}${inline('B1', 'Amount')}${inline('XFD1', 'Note')}</row>`
            : `<row r="${r}">${inline(`A${r}`, '08031234567')}<c r="B${r}"><v>500</v></c><c r="XFD${r}"><v>1</v></c></row>`,
        ),
      ),
  },
  {
    name: 'beyond-xfd.xlsx',
    what: 'a cell reference of 100,000 letters, far past column XFD',
    write: (file) => writeWorkbook(file, [SHEET_OPEN, HEADER_ROW, `<row r="2"><c r="${'Z'.repeat(100_000)}2"><v>1</v></c></row>`, SHEET_CLOSE]),
  },
  {
    name: 'last-row.xlsx',
    what: 'a header and one row numbered 1,048,576 (the last a sheet can have)',
    write: (file) => writeWorkbook(file, [SHEET_OPEN, HEADER_ROW, dataRow(1_048_576), SHEET_CLOSE]),
  },
  {
    name: 'beyond-last-row.xlsx',
    what: 'a row numbered 99,999,999,999',
    write: (file) => writeWorkbook(file, [SHEET_OPEN, HEADER_ROW, '<row r="99999999999"><c r="A1"><v>1</v></c></row>', SHEET_CLOSE]),
  },
  {
    name: 'empty-cells.xlsx',
    what: 'a dimension claiming A1:XFD1048576, and 5,000,000 empty cells among three real rows',
    write: (file) =>
      writeWorkbook(file, [
        `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><dimension ref="A1:XFD1048576"/><sheetData>`,
        HEADER_ROW,
        dataRow(2),
        ...(function* () {
          for (let r = 3; r < 1003; r++) {
            const cells: string[] = [];
            for (let c = 0; c < 5000; c++) cells.push(`<c r="C${r}" s="1"/>`);
            yield `<row r="${r}">${cells.join('')}</row>`;
          }
        })(),
        dataRow(1003),
        dataRow(1004),
        SHEET_CLOSE,
      ]),
  },
  {
    name: 'huge-shared-string.xlsx',
    what: 'one shared string of 50,000,000 characters',
    write: (file) =>
      writeWorkbook(file, [SHEET_OPEN, HEADER_ROW, '<row r="2"><c r="A2" t="s"><v>0</v></c></row>', SHEET_CLOSE], {
        sharedStrings: [
          `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}" count="4000000000" uniqueCount="4000000000"><si><t>`,
          ...(function* () {
            const block = '8'.repeat(1 << 20);
            for (let i = 0; i < 48; i++) yield block;
          })(),
          '</t></si></sst>',
        ],
      }),
  },
  {
    name: 'long-texts.xlsx',
    what: '3,000 rows each with a note of 32,000 characters (96 million in all)',
    write: (file) =>
      writeWorkbook(
        file,
        rows(3001, (r) =>
          r === 1
            ? `<row r="1">${inline('A1', 'Phone')}${inline('B1', 'Amount')}${inline('C1', 'Note')}</row>`
            : `<row r="${r}">${inline(`A${r}`, '08031234567')}<c r="B${r}"><v>500</v></c>${inline(`C${r}`, randomLetters(r, 3200).repeat(10))}</row>`,
        ),
      ),
  },
  {
    name: 'shared-string-claims.xlsx',
    what: 'shared strings claiming 4,000,000,000 entries and cells pointing past the two there are',
    write: (file) =>
      writeWorkbook(
        file,
        [
          SHEET_OPEN,
          `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>`,
          '<row r="2"><c r="A2" t="s"><v>3999999999</v></c><c r="B2"><v>500</v></c></row>',
          SHEET_CLOSE,
        ],
        {
          sharedStrings: `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}" count="4000000000" uniqueCount="4000000000"><si><t>Phone</t></si><si><t>Amount</t></si></sst>`,
        },
      ),
  },
  {
    name: 'deep-nesting.xlsx',
    what: 'XML nested 2,000,000 elements deep inside a cell',
    write: (file) =>
      writeWorkbook(file, [
        SHEET_OPEN,
        HEADER_ROW,
        '<row r="2"><c r="A2" t="inlineStr"><is>',
        ...(function* () {
          for (let i = 0; i < 100; i++) yield '<x>'.repeat(20_000);
          yield '<t>08031234567</t>';
          for (let i = 0; i < 100; i++) yield '</x>'.repeat(20_000);
        })(),
        '</is></c><c r="B2"><v>500</v></c></row>',
        SHEET_CLOSE,
      ]),
  },
  {
    name: 'many-sheets.xlsx',
    what: 'a workbook listing 200,000 sheets',
    write: (file) =>
      writeWorkbook(file, [SHEET_OPEN, HEADER_ROW, dataRow(2), SHEET_CLOSE], {
        workbookXml: [
          `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets>`,
          ...Array.from({ length: 200_000 }, (_, i) => `<sheet name="S${i}" sheetId="${i + 1}" r:id="rId1"/>`),
          '</sheets></workbook>',
        ].join(''),
      }),
  },
  {
    name: 'long-sheet-names.xlsx',
    what: '900 sheets with names of 10,000 characters, and the sheet asked for is not one of them',
    write: (file) => writeWorkbook(file, [SHEET_OPEN, HEADER_ROW, dataRow(2), SHEET_CLOSE], { sheetNames: Array.from({ length: 900 }, (_, i) => `${i}${'N'.repeat(10_000)}`) }),
  },
  {
    name: 'unclosed-quote.csv',
    what: 'a 100 MB CSV whose second row opens a quote that never closes',
    write: async (file) => writeLargeText(file, 'Phone,Amount\n"', 'x', 100 * 1024 * 1024),
  },
  {
    name: 'one-line.csv',
    what: 'a 100 MB CSV with no line break at all',
    write: async (file) => writeLargeText(file, 'Phone', '8', 100 * 1024 * 1024),
  },
  {
    name: 'wide-line.csv',
    what: 'a 100 MB CSV of one row of commas',
    write: async (file) => writeLargeText(file, 'Phone,Amount', ',', 100 * 1024 * 1024),
  },
  {
    name: 'long-cell.csv',
    what: 'a CSV whose phone cell holds 900,000 characters',
    write: async (file) => fs.writeFileSync(file, `Phone,Amount\n${'9'.repeat(900_000)},500\n08031234567,500\n`),
  },
  {
    name: 'workbook-named.csv',
    what: 'the XFD workbook saved with a .csv extension',
    write: (file) =>
      writeWorkbook(
        file,
        rows(40_001, (r) =>
          r === 1
            ? `<row r="1">${inline('A1', 'Phone')}${inline('B1', 'Amount')}${inline('XFD1', 'Note')}</row>`
            : `<row r="${r}">${inline(`A${r}`, '08031234567')}<c r="B${r}"><v>500</v></c><c r="XFD${r}"><v>1</v></c></row>`,
        ),
      ),
  },
  {
    name: 'csv-named.xlsx',
    what: 'the unclosed-quote CSV saved with a .xlsx extension',
    write: async (file) => writeLargeText(file, 'Phone,Amount\n"', 'x', 100 * 1024 * 1024),
  },
];

/** `length` letters from a generator seeded with `seed`: text that does not compress like a bomb. */
function randomLetters(seed: number, length: number): string {
  let x = seed * 2654435761 + 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += String.fromCharCode(97 + (x % 26));
  }
  return out;
}

/** `head` then `fill` repeated to `bytes`, written in 1 MB blocks. */
function writeLargeText(file: string, head: string, fill: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, head);
    const block = Buffer.from(fill.repeat(Math.ceil((1 << 20) / fill.length)).slice(0, 1 << 20));
    for (let written = head.length; written < bytes; written += block.length) fs.writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  } finally {
    fs.closeSync(fd);
  }
}
