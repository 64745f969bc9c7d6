/**
 * What `vendesk` needs to know of every command before one runs: its words, summary, usage,
 * options and exit codes — enough for `--help`, "did you mean", a group's list and an unknown
 * option. Read from the commands themselves (src/cli/commands/), so nothing is written twice.
 *
 * In the built command (out/cli, vite.cli.config.ts) this module is replaced by the same list
 * computed at build time, as oclif's manifest does: `--help`, `--version` and a mistake then load
 * none of the commands, their output shapes or zod; the commands load when one runs
 * (src/cli/main.ts).
 */
import type { CliCommand } from './cliCommand';
import { COMMANDS } from './commands';

export type CommandEntry = Pick<CliCommand, 'path' | 'summary' | 'usage' | 'options' | 'exitCodes'>;

/** A command's entry: only what can be written as JSON (no output shape, no code). */
export function entryOf(c: CommandEntry): CommandEntry {
  return { path: c.path, summary: c.summary, usage: c.usage, options: c.options, ...(c.exitCodes ? { exitCodes: c.exitCodes } : {}) };
}

export const COMMAND_ENTRIES: CommandEntry[] = COMMANDS.map(entryOf);
