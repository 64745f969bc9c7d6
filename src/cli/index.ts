import { runCli } from './main';

runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
