/**
 * Security: the documentation never shows a secret on a command line. A token typed into
 * `npm run … --token T` is written by npm into ~/.npm/_logs (readable by other users), stays in
 * shell history and shows in the process list; people copy what the docs show. Every command
 * in README.md and docs/ (fenced code blocks, and inline code that runs npm, npx, node,
 * vendesk or curl) is checked for a secret given as an option, a token variable assigned a
 * literal value, or a literal Bearer token.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');

const SECRET_ON_COMMAND_LINE: { what: string; pattern: RegExp }[] = [
  { what: 'a secret given as an option', pattern: /--(?:token|api-?key|password|passwd|secret)(?:=|\s+)(?!-)\S/i },
  { what: 'a token variable assigned a literal value', pattern: /\b[A-Z_]*(?:TOKEN|TOKENS|SECRET|PASSWORD|API_KEY)=(?!["']?\$)\S/ },
  { what: 'a literal Bearer or Basic credential', pattern: /\b(?:Bearer|Basic)\s+(?![$<[])[A-Za-z0-9._~+/=-]{4,}/ },
];

const COMMAND = /\b(?:npm|npx|node|vendesk|curl|tsx)\b/;

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(p);
    return entry.name.endsWith('.md') ? [p] : [];
  });
}

/** The command lines a reader may copy: every line of a fenced block, and inline code that runs a command. */
function commandsIn(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) {
      out.push({ line: i + 1, text });
      return;
    }
    for (const m of text.matchAll(/`([^`]+)`/g)) if (COMMAND.test(m[1])) out.push({ line: i + 1, text: m[1] });
  });
  return out;
}

function secretsOnCommandLines(markdown: string): string[] {
  const found: string[] = [];
  for (const { line, text } of commandsIn(markdown)) {
    for (const { what, pattern } of SECRET_ON_COMMAND_LINE) if (pattern.test(text)) found.push(`line ${line}: ${what}: ${text.trim()}`);
  }
  return found;
}

describe('no secret on a command line in the documentation', () => {
  const files = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];

  it('finds the documents', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))('%s', (_name, file) => {
    expect(secretsOnCommandLines(fs.readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('the check catches the forms it is for, and lets the safe ones through', () => {
    const bad = [
      '```sh\nnpm run sandbox -- --port 4010 --token demo-token\n```',
      '```\nnpm run cli -- balance --token=abc123 --json\n```',
      'Run `vendesk balance --base-url https://x --token T`.',
      '```sh\nVENDESK_TOKEN=abc123 npm run cli -- balance\n```',
      '```sh\nexport VENDESK_SANDBOX_TOKENS=demo\n```',
      '```sh\ncurl -H "Authorization: Bearer live-abc123" https://vending.example.com/accountBalance\n```',
      '```sh\nnpx tsx src/sandbox/runStandalone.ts --api-key k3y\n```',
    ];
    for (const doc of bad) expect(secretsOnCommandLines(doc), doc).toHaveLength(1);
    const safe = [
      '```sh\nnpm run sandbox -- --port 4010 --token-file sandbox-tokens.txt\n```',
      '```sh\nread -rs VENDESK_TOKEN && export VENDESK_TOKEN\nexport VENDESK_TOKEN="$(cat ~/.vendesk-live.token)"\n```',
      '```sh\ncurl -H "Authorization: Bearer $VENDESK_TOKEN" https://vending.example.com/accountBalance\n```',
      '| `--token` | avoid: give `VENDESK_TOKEN` instead |',
    ];
    for (const doc of safe) expect(secretsOnCommandLines(doc), doc).toEqual([]);
  });
});
