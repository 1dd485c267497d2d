export * from './read-file.js';
export * from './write-file.js';
export * from './file-lock.js';
