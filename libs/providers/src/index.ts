/**
 * @okstra/providers — the provider registry (ARCHITECTURE.md §5; 0.164.0
 * README provider table and host/provider registry text): bundled manifests,
 * user installs under `~/.okstra/adapters/providers/<id>/`, role checks and
 * the launch argv of each provider CLI.
 */
export * from './bundled.js';
export * from './roles.js';
export * from './registry.js';
