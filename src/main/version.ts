/** Kept equal to package.json's version (test/unit/version.test.ts checks it). */
export const APP_VERSION = '0.1.0';
