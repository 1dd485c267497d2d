export * from './task-key.js';
export * from './seq.js';
export * from './containment.js';
export * from './layout.js';
export * from './parse-names.js';
export * from './real-path.js';
export * from './fast-join.js';
