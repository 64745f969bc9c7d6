/**
 * Regenerates the downloadable templates in this folder: `npx tsx resources/templates/makeTemplates.ts`.
 * The contents are defined in bench/generate/spreadsheets.ts (TEMPLATES), so tests can check
 * that every template imports cleanly.
 */
import { writeTemplates } from '../../bench/generate/spreadsheets';

writeTemplates(__dirname).then(
  (files) => console.log(files.join('\n')),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
