import type { ProviderManifest } from '@okstra/schemas/provider-manifest';

/**
 * The bundled provider manifests (0.164.0 README provider table; the
 * okstra-<provider>-exec.sh launch lines). Roles per that table: Claude and
 * Codex analysis, implementation and report writer; Antigravity analysis and
 * implementation; Grok and Kimi read-only analyser and critic. `critic` is
 * open to every provider because `--critic` accepts all five.
 * claude's stream-json argv carries `--verbose`: Claude Code rejects
 * `--print` with `--output-format=stream-json` without it and exits 1 in
 * under a second (0.161.0 okstra-claude-exec.sh change).
 */
export const BUNDLED_PROVIDERS: readonly ProviderManifest[] = [
  {
    schemaVersion: '1.0',
    id: 'claude',
    displayName: 'Claude Code',
    executable: 'claude',
    argv: ['-p', '--model', '{model}', '--output-format=stream-json', '--verbose'],
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic', 'implementation', 'verification', 'report-writer'],
    readOnly: false,
  },
  {
    schemaVersion: '1.0',
    id: 'codex',
    displayName: 'Codex',
    executable: 'codex',
    argv: ['exec', '--model', '{model}', '-'],
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic', 'implementation', 'verification', 'report-writer'],
    readOnly: false,
  },
  {
    schemaVersion: '1.0',
    id: 'antigravity',
    displayName: 'Antigravity CLI',
    executable: 'antigravity',
    argv: ['-p', '--model', '{model}'],
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic', 'implementation', 'verification'],
    readOnly: false,
  },
  {
    schemaVersion: '1.0',
    id: 'grok',
    displayName: 'Grok CLI',
    executable: 'grok',
    argv: ['-p', '--model', '{model}'],
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic'],
    readOnly: true,
  },
  {
    schemaVersion: '1.0',
    id: 'kimi',
    displayName: 'Kimi CLI',
    executable: 'kimi',
    argv: ['--print', '--model', '{model}'],
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic'],
    readOnly: true,
  },
];
