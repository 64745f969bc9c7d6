#!/usr/bin/env node
// The `vendesk` command. Runs the TypeScript sources through tsx, so the CLI works from a
// checkout with no build step.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { register } = require('tsx/cjs/api');
register();
require('../src/cli/index.ts');
