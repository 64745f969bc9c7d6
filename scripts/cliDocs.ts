/**
 * `npm run docs:cli`: writes the command reference and the exit-code table of docs/cli.md from the command table
 * (src/cli/cliDocs.ts). test/unit/cli/cliDocs.test.ts fails when the two differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import { commandReference, exitCodeTable, withExitCodeTable, withReference } from '../src/cli/cliDocs';
import { COMMANDS } from '../src/cli/commands';

const file = path.resolve(__dirname, '..', 'docs', 'cli.md');
const before = fs.readFileSync(file, 'utf8');
const after = withExitCodeTable(withReference(before, commandReference(COMMANDS)), exitCodeTable());
fs.writeFileSync(file, after);
console.log(after === before ? 'docs/cli.md is up to date.' : `docs/cli.md: the command reference was rewritten (${COMMANDS.length} commands).`);
