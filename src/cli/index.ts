import { runCli } from './main';
import { processIo, screenOf } from './terminal';

const io = processIo(process.env);
runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    screenOf(io).failure(error instanceof Error ? error.message : String(error), undefined);
    process.exitCode = 1;
  },
);
