import type { ProviderManifest } from '@okstra/schemas/provider-manifest';

/**
 * Claude Code 2.1.197 (`claude --help`), headless: `-p` with the prompt on
 * stdin; `--output-format=stream-json --verbose` (Claude Code rejects
 * stream-json in print mode without `--verbose` and exits 1 in under a
 * second — 0.161.0 okstra-claude-exec.sh change); `--permission-mode
 * dontAsk` (never prompts; any tool use not pre-approved is denied — not a
 * bypass); `--tools` limits the built-in set; `--allowedTools` pre-approves
 * reading, `date` (the heartbeat's clock) and edits under `{writeRoot}` only
 * (`Edit(//abs/**)`: a leading `//` is an absolute path in Claude Code's
 * permission rules). The analyser's `{writeRoot}` is its delivery directory,
 * the implementer's the project root (libs/providers `writeRootOf`).
 */
const CLAUDE_ARGV = [
  '-p',
  '--model',
  '{model}',
  '--output-format=stream-json',
  '--verbose',
  '--permission-mode',
  'dontAsk',
  '--tools',
  'Read,Glob,Grep,Edit,Write,Bash',
  '--allowedTools',
  'Read',
  'Glob',
  'Grep',
  'Bash(date:*)',
  'Edit(/{writeRoot}/**)',
  'Write(/{writeRoot}/**)',
];

/**
 * The claude implementer (issue 26.5): the same launch with Claude Code's
 * own sandbox on (`--settings`, a `sandbox` section; on Linux bubblewrap for
 * the file system and socat for its network proxy): every Bash command runs
 * inside it and is auto-approved there (`autoAllowBashIfSandboxed`), none may
 * leave it (`allowUnsandboxedCommands: false` ignores the tool's
 * `dangerouslyDisableSandbox` parameter), the launch fails rather than run
 * unsandboxed (`failIfUnavailable`), and no domain is allowed through its
 * proxy, so a command reaches no network. A sandboxed command may write only
 * under the working directory (the project root, the implementer's
 * `{writeRoot}`) and the paths of the `Edit(...)` allow rules.
 */
const CLAUDE_SANDBOX_SETTINGS = JSON.stringify({
  sandbox: {
    enabled: true,
    failIfUnavailable: true,
    autoAllowBashIfSandboxed: true,
    allowUnsandboxedCommands: false,
    network: { allowedDomains: [] },
  },
});
const CLAUDE_IMPLEMENTER_ARGV = [...CLAUDE_ARGV, '--settings', CLAUDE_SANDBOX_SETTINGS];

/**
 * Codex CLI 0.171.0 (`codex exec --help`): `exec --json` (JSONL events on
 * stdout, the `ThreadEvent`s of @openai/codex-sdk); `--sandbox
 * workspace-write` with `--cd {writeRoot}` (model commands may write only in
 * that directory: `/tmp` and `$TMPDIR` are excluded with the two
 * `sandbox_workspace_write.exclude_*` settings; reading is unrestricted); approvals
 * `never` (exec's default, made explicit so a user config cannot turn prompts
 * on with nobody to answer); `--skip-git-repo-check` (okstra projects need not
 * be git repositories — without it codex refuses "Not inside a trusted
 * directory"); `--output-last-message` for the wrapper's capture; `-` = the
 * prompt on stdin. `features.plugins/remote_plugin/apps=false` and
 * `analytics.enabled=false` stop its start-up calls (plugin sync, apps, analytics).
 */
const CODEX_ARGV = [
  'exec',
  '--json',
  '--model',
  '{model}',
  '--sandbox',
  'workspace-write',
  '--config',
  'approval_policy="never"',
  '--cd',
  '{writeRoot}',
  '--skip-git-repo-check',
  // The sandbox's write root is the workdir only: workspace-write also opens /tmp and $TMPDIR unless told not to (issue 26.1).
  '--config',
  'sandbox_workspace_write.exclude_slash_tmp=true',
  '--config',
  'sandbox_workspace_write.exclude_tmpdir_env_var=true',
  // No start-up traffic but to the model: no plugin sync, no apps, no analytics (issue 26.3).
  '--config',
  'features.plugins=false',
  '--config',
  'features.remote_plugin=false',
  '--config',
  'features.apps=false',
  '--config',
  'analytics.enabled=false',
  '--output-last-message',
  '{lastMessagePath}',
  '-',
];

/**
 * The bundled provider manifests (0.164.0 README provider table; the
 * okstra-<provider>-exec.sh launch lines; what each launch is based on:
 * docs/providers.md). Roles per that table: Claude and Codex analysis,
 * implementation and report writer; Antigravity analysis and implementation;
 * Grok and Kimi read-only analyser and critic. `critic` is open to every
 * provider because `--critic` accepts all five.
 */
export const BUNDLED_PROVIDERS: readonly ProviderManifest[] = [
  {
    schemaVersion: '1.0',
    id: 'claude',
    displayName: 'Claude Code',
    executable: 'claude',
    argv: CLAUDE_ARGV,
    argvByCapability: { implementation: CLAUDE_IMPLEMENTER_ARGV },
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic', 'implementation', 'verification', 'report-writer'],
    readOnly: false,
    capture: 'claude-stream-json',
    // `--json-schema` (2.1.197 `claude --help`): the answer comes back as the result event's `structured_output`.
    answerSchemaArgv: ['--json-schema', '{answerSchema}'],
    // No update checks, telemetry or other calls but to the model (issue 26.3).
    env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
  },
  {
    schemaVersion: '1.0',
    id: 'codex',
    displayName: 'Codex',
    executable: 'codex',
    argv: CODEX_ARGV,
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic', 'implementation', 'verification', 'report-writer'],
    readOnly: false,
    capture: 'codex-jsonl',
    // `--output-schema <FILE>` (0.171.0 `codex exec --help`): the last message is the JSON object (strict json_schema).
    answerSchemaArgv: ['--output-schema', '{answerSchemaPath}'],
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
    capture: 'none',
  },
  {
    // Grok CLI headless mode (docs.x.ai "Headless & Scripting"): `-p` takes the
    // prompt text itself, so the prompt file goes through `--prompt-file`;
    // `--no-auto-update` skips the update check in automation.
    schemaVersion: '1.0',
    id: 'grok',
    displayName: 'Grok CLI',
    executable: 'grok',
    argv: ['--prompt-file', '{promptPath}', '--model', '{model}', '--no-auto-update'],
    promptDelivery: 'argument',
    capabilities: ['analysis', 'critic'],
    readOnly: true,
    capture: 'none',
  },
  {
    // Kimi Code CLI print mode (its "Print Mode" docs): `--print` reads the prompt from stdin.
    schemaVersion: '1.0',
    id: 'kimi',
    displayName: 'Kimi CLI',
    executable: 'kimi',
    argv: ['--print', '--model', '{model}'],
    promptDelivery: 'stdin',
    capabilities: ['analysis', 'critic'],
    readOnly: true,
    capture: 'none',
  },
];
