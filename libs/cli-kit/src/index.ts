export * from './exit-codes.js';
export * from './errors.js';
export * from './io.js';
export * from './json-output.js';
export * from './options.js';
export * from './run-cli.js';
