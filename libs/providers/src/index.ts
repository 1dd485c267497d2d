/**
 * @okstra/providers — the provider registry (docs/contracts.md §5; 0.164.0
 * README provider table and host/provider registry text): bundled manifests,
 * user installs under `~/.okstra/adapters/providers/<id>/`, role checks, the
 * launch argv of each provider CLI and what a worker may write, the capture of
 * each CLI's final answer and usage, and the liveness mode of CLI workers
 * (docs/providers.md).
 */
export * from './bundled.js';
export * from './roles.js';
export * from './registry.js';
export * from './launch.js';
export * from './executable.js';
export * from './liveness.js';
export * from './capture/index.js';
export * from './evidence/index.js';
