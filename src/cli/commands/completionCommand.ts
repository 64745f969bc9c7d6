/**
 * `vendesk completion bash|zsh`: the shell completion script, generated from the command table it
 * is made with (`commands/index.ts` hands it the table, read when it runs, so it lists every
 * command, its own included; the table imports this file, never the other way round).
 */
import { z } from 'zod';
import { GLOBAL_OPTIONS, UsageError, command, requirePositional, type CliCommand } from '../cliCommand';
import { SHELLS, completionScript } from '../completion';
import { vendeskLines } from '../terminal';

/** The completion command of the table `commands` answers. */
export const completionCommandOf = (commands: () => readonly CliCommand[]) =>
  command({
    path: ['completion'],
    summary: 'Print the shell completion script for bash or zsh',
    usage: 'vendesk completion bash|zsh   (then: source <(vendesk completion bash))',
    options: [],
    output: z.strictObject({ shell: z.enum(SHELLS), script: z.string() }),
    async run(ctx) {
      const asked = requirePositional(ctx.args, 0, 'Name the shell: vendesk completion bash|zsh');
      const shell = SHELLS.find((s) => s === asked);
      if (!shell) throw new UsageError(`vendesk completes commands in bash and zsh, not "${asked}": vendesk completion bash|zsh`);
      const script = completionScript(shell, commands(), GLOBAL_OPTIONS);
      return { json: { shell, script }, text: vendeskLines(script.trimEnd()) };
    },
  });
