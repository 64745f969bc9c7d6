/**
 * `vendesk completion bash|zsh`: the shell completion script, generated from the command table
 * (this file reads it when it runs, so it lists every command, its own included).
 */
import { z } from 'zod';
import { GLOBAL_OPTIONS, UsageError, command, requirePositional } from '../cliCommand';
import { SHELLS, completionScript } from '../completion';
import { vendeskLines } from '../terminal';
import { COMMANDS } from '.';

export const completionCommand = command({
  path: ['completion'],
  summary: 'Print the shell completion script for bash or zsh',
  usage: 'vendesk completion bash|zsh   (then: source <(vendesk completion bash))',
  options: [],
  output: z.strictObject({ shell: z.enum(SHELLS), script: z.string() }),
  async run(ctx) {
    const asked = requirePositional(ctx.args, 0, 'Name the shell: vendesk completion bash|zsh');
    const shell = SHELLS.find((s) => s === asked);
    if (!shell) throw new UsageError(`vendesk completes commands in bash and zsh, not "${asked}": vendesk completion bash|zsh`);
    const script = completionScript(shell, COMMANDS, GLOBAL_OPTIONS);
    return { json: { shell, script }, text: vendeskLines(script.trimEnd()) };
  },
});
