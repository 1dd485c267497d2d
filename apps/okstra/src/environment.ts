import { maxOf } from '@okstra/cli-kit';
/**
 * Every environment variable an okstra tool reads (docs/environment.md,
 * `okstra help environment`). environment.spec.ts scans the sources so a
 * new one cannot go unlisted.
 */
export interface EnvironmentVariable {
  name: string;
  /** The tools (bins) that read it. */
  readBy: string;
  /** What it changes, with its unit and default. */
  effect: string;
}

export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'OKSTRA_DEBUG', readBy: 'every tool', effect: 'when set (any value), an internal error (exit 70) also prints its stack trace on stderr' },
  {
    name: 'OKSTRA_AUDIT_WORKERS',
    readBy: 'okstra-run-audit run-audit',
    effect: 'worker threads for a project of more than 200 runs (0: none); default: available parallelism − 1, at most 3 (docs/run-audit.md "Worker threads")',
  },
  { name: 'OKSTRA_TMUX_SOCKET', readBy: 'okstra-team', effect: 'tmux socket name (tmux -L) for dispatch, await and teardown; default: the default server' },
  { name: 'OKSTRA_TEAM_POLL_MS', readBy: 'okstra-team await', effect: 'milliseconds between polls; default 2000' },
  {
    name: 'OKSTRA_UNREACHABLE_GRACE_MS',
    readBy: 'okstra-team exec',
    effect: 'milliseconds a provider CLI may report its model unreachable before the wrapper stops it (1000-50000); default 20000',
  },
  {
    name: 'OKSTRA_LIVENESS_LAUNCH_GRACE_S',
    readBy: 'okstra-team await',
    effect: 'seconds a worker may take to write its first heartbeat; default: libs/heartbeat budget',
  },
  {
    name: 'OKSTRA_LIVENESS_MAX_IDLE_S',
    readBy: 'okstra-team await',
    effect: 'seconds between heartbeats before a worker is suspect; default: libs/heartbeat budget',
  },
  {
    name: 'OKSTRA_LIVENESS_STALL_CONFIRM_S',
    readBy: 'okstra-team await',
    effect: 'seconds a suspect worker is watched before it is stalled; default: libs/heartbeat budget',
  },
  {
    name: 'HOME',
    readBy: 'okstra, okstra-team, okstra-run-audit',
    effect:
      'where ~/.okstra is (user providers, config, the error-issue plan, the installed texts) and where okstra install finds ~/.claude, ~/.agents and ~/.gemini',
  },
  {
    name: 'OKSTRA_HOME',
    readBy: 'okstra install',
    effect: 'the folder okstra install puts the lead/worker texts (prompts/) and its install-manifest.json in; default ~/.okstra',
  },
  { name: 'USERPROFILE', readBy: 'okstra, okstra-run-audit', effect: 'the home directory when HOME is unset (Windows)' },
  { name: 'PATH', readBy: 'okstra, okstra-team, okstra-run-audit', effect: 'where okstra-<word> plug-ins, tmux, cmux, gh and provider CLIs are found' },
  {
    name: 'CODEX_HOME',
    readBy: 'okstra-team exec',
    effect: "the codex CLI's directory, whose session record gives a codex worker's usage.turns ($CODEX_HOME/sessions; default ~/.codex)",
  },
  { name: 'TMUX', readBy: 'okstra-team dispatch', effect: 'with TMUX_PANE: dispatch opens panes in the tmux session it runs in' },
  { name: 'TMUX_PANE', readBy: 'okstra-team dispatch', effect: 'the pane dispatch runs in (with TMUX)' },
  { name: 'CMUX_SURFACE_ID', readBy: 'okstra-team dispatch', effect: 'the cmux surface new worker panes are split from' },
  {
    name: 'USER',
    readBy: 'okstra-run-audit error-issue',
    effect: 'an identity removed from issue candidates (also LOGNAME, USERNAME, HOME and the host name)',
  },
  { name: 'LOGNAME', readBy: 'okstra-run-audit error-issue', effect: 'an identity removed from issue candidates' },
  { name: 'USERNAME', readBy: 'okstra-run-audit error-issue', effect: 'an identity removed from issue candidates' },
  {
    name: 'HOSTNAME',
    readBy: 'okstra-run-audit error-issue',
    effect: 'a host name removed from issue candidates (with HOST and COMPUTERNAME, beside os.hostname())',
  },
  { name: 'HOST', readBy: 'okstra-run-audit error-issue', effect: 'a host name removed from issue candidates' },
  { name: 'COMPUTERNAME', readBy: 'okstra-run-audit error-issue', effect: 'a host name removed from issue candidates (Windows)' },
  { name: 'EMAIL', readBy: 'okstra-run-audit error-issue', effect: 'an e-mail address removed from issue candidates' },
  { name: 'GIT_AUTHOR_NAME', readBy: 'okstra-run-audit error-issue', effect: 'a person name removed from issue candidates, whole and word by word' },
  { name: 'GIT_AUTHOR_EMAIL', readBy: 'okstra-run-audit error-issue', effect: 'an e-mail address removed from issue candidates' },
  { name: 'GIT_COMMITTER_NAME', readBy: 'okstra-run-audit error-issue', effect: 'a person name removed from issue candidates, whole and word by word' },
  { name: 'GIT_COMMITTER_EMAIL', readBy: 'okstra-run-audit error-issue', effect: 'an e-mail address removed from issue candidates' },
  {
    name: 'GIT_DIR',
    readBy: 'citation checks (run-audit, worker-audit-check, collect-results, collect-verdicts)',
    effect: "never passed on: the git that reads a cited file at the run's recorded commit reads the project's own repository",
  },
  {
    name: 'GIT_WORK_TREE',
    readBy: 'citation checks (run-audit, worker-audit-check, collect-results, collect-verdicts)',
    effect: 'never passed on, as GIT_DIR',
  },
  {
    name: 'XDG_CONFIG_HOME',
    readBy: 'okstra-run-audit error-issue',
    effect: 'where the git config whose user.name / user.email are removed from issue candidates is ($XDG_CONFIG_HOME/git/config; default ~/.config)',
  },
];

/**
 * Test seams (docs/test-seams.md, for contributors): read by the tools, but only the crash-safety suites set them,
 * so `okstra help environment` and docs/environment.md (what a user may set) leave them out.
 */
export const TEST_SEAMS: readonly EnvironmentVariable[] = [
  {
    name: 'OKSTRA_STEP_TRACE',
    readBy: 'okstra-convergence run, okstra-team dispatch',
    effect: 'a file each step boundary of run and of dispatch is appended to as <n> TAB <step> TAB <ms since start>; unset: nothing',
  },
  {
    name: 'OKSTRA_STEP_KILL_AT',
    readBy: 'okstra-convergence run, okstra-team dispatch',
    effect: '<n>[:<ms>]: the process SIGKILLs itself at its n-th step boundary, or ms after it (the crash-safety suite); unset: nothing',
  },
];

/** `okstra help environment`. */
export function environmentHelp(): string {
  const width = maxOf(
    ENVIRONMENT.map((v) => v.name.length),
    0,
  );
  return [
    'Environment variables the okstra tools read (https://github.com/devonshin/okstra/blob/main/docs/environment.md):',
    '',
    ...ENVIRONMENT.map((v) => `  ${v.name.padEnd(width)}  ${v.effect} [${v.readBy}]`),
    '',
  ].join('\n');
}
