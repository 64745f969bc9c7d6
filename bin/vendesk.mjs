#!/usr/bin/env node
// The `vendesk` command. Runs the TypeScript sources through tsx, so the CLI works from a
// checkout with no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

register();
const here = path.dirname(fileURLToPath(import.meta.url));
await import(pathToFileURL(path.join(here, '..', 'src', 'cli', 'index.ts')).href);
