/** Entry point for running the standalone sandbox directly: `npx tsx src/sandbox/runStandalone.ts --port 4010 --token-file tokens.txt`. */
import { runSandboxCli } from './standalone';

runSandboxCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
