/**
 * `node:child_process`, loaded on first use rather than at import. Loading the
 * built-in (with net, dgram and stream internals behind it) cost ~6.6 ms CPU
 * at start-up, and most calls of a tool that can spawn never do: `team await`
 * over finished workers, every umbrella call that is not a plug-in, a teardown
 * with nothing to close (docs/release.md "Bundled bins"). Import its types with
 * `import type`, and call this where the spawn happens.
 */
export function childProcess(): typeof import('node:child_process') {
  return process.getBuiltinModule('node:child_process');
}
