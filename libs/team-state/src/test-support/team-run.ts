// The one builder of a team run fixture: stub provider CLIs installed as user
// providers, and the pending team-state + running run manifest that
// `okstra team dispatch` reads. Used by the okstra-team specs,
// tools/prompt-contract's external-adapter walk and the demo's team step
// (which imports the built copy: this folder is compiled, never published).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Install `script` as user provider `id`: `<home>/.okstra/adapters/providers/<id>/run.sh`
 * (mode 755) and its `provider.json` (argv `{model} {resultPath}`, the prompt on
 * stdin — the manifest default; docs/providers.md). `capabilities` default to
 * analysis + critic.
 */
export function installStubProvider(home: string, id: string, script: string, capabilities: readonly string[] = ['analysis', 'critic']): void {
  const dir = join(home, '.okstra', 'adapters', 'providers', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.sh'), script);
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeJson(join(dir, 'provider.json'), { schemaVersion: '1.0', id, executable: './run.sh', argv: ['{model}', '{resultPath}'], capabilities });
}

/** One worker of a fixture run: id, provider id and role. */
export interface TeamRunWorker {
  id: string;
  provider: string;
  role: string;
}

/** Where and what the fixture run is; the defaults are the sample project's refund-timeout error analysis. */
export interface TeamRunOptions {
  seq: string;
  taskKey?: string;
  taskType?: string;
  /** The run directory, project-relative (default `.okstra/tasks/payments/refund-timeout/runs/<taskType>`). */
  runDir?: string;
  /** The manifest's `startedAt`, ISO-8601 UTC (default now). */
  startedAt?: string;
  /** The manifest's `terminalBackend` (default `tmux-pane`). */
  terminalBackend?: string;
  /** Every worker assignment's model and execution value (default `stub-model`). */
  model?: string;
}

/** The project-relative paths of a fixture run (docs/contracts.md storage layout). */
export interface TeamRunPaths {
  runDir: string;
  manifest: string;
  teamState: string;
  prompt(workerId: string): string;
  result(workerId: string): string;
}

/** The paths of a run (nothing written): `<runDir>/manifests/run-manifest-<type>-<seq>.json`, `state/team-state-…`, `prompts/<id>-prompt-…md`, `worker-results/<id>-…md`. */
export function teamRunPaths(options: Pick<TeamRunOptions, 'seq' | 'taskType' | 'runDir'>): TeamRunPaths {
  const type = options.taskType ?? 'error-analysis';
  const run = options.runDir ?? `.okstra/tasks/payments/refund-timeout/runs/${type}`;
  const suffix = `${type}-${options.seq}`;
  return {
    runDir: run,
    manifest: `${run}/manifests/run-manifest-${suffix}.json`,
    teamState: `${run}/state/team-state-${suffix}.json`,
    prompt: (id) => `${run}/prompts/${id}-prompt-${suffix}.md`,
    result: (id) => `${run}/worker-results/${id}-${suffix}.md`,
  };
}

/**
 * Write the run under project `root`: a team-state with every worker `pending`
 * (attempt 0) and a `running` manifest (external lead on claude/opus,
 * cli-wrapper workers, no dispatch yet, reportAuthor `report-writer`). Prompts
 * are the caller's to write, at `paths.prompt(id)`.
 * @returns the run's project-relative paths.
 */
export function writeTeamRun(root: string, workers: readonly TeamRunWorker[], options: TeamRunOptions): TeamRunPaths {
  const paths = teamRunPaths(options);
  const head = {
    schemaVersion: '1.0',
    taskKey: options.taskKey ?? 'sample:payments:refund-timeout',
    taskType: options.taskType ?? 'error-analysis',
    seq: options.seq,
  };
  const model = options.model ?? 'stub-model';
  writeJson(join(root, paths.teamState), {
    ...head,
    workers: workers.map((w) => ({ workerId: w.id, provider: w.provider, role: w.role, status: 'pending', attempt: 0 })),
  });
  writeJson(join(root, paths.manifest), {
    ...head,
    status: 'running',
    startedAt: options.startedAt ?? new Date().toISOString(),
    endedAt: null,
    teamStatePath: paths.teamState,
    reportAuthor: 'report-writer',
    leadRuntime: 'external',
    terminalBackend: options.terminalBackend ?? 'tmux-pane',
    hostRuntime: 'external',
    leadAssignment: { role: 'lead', provider: 'claude', model: 'opus', executionValue: 'opus', runner: 'native-session' },
    workerAssignments: workers.map((w) => ({ workerId: w.id, role: w.role, provider: w.provider, model, executionValue: model, runner: 'cli-wrapper' })),
    workerDispatches: [],
  });
  return paths;
}

/** Write pretty JSON (two-space indent, final newline), creating parent directories. */
export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2) + '\n');
}

/**
 * A stub provider script for `okstra convergence run` (its specs and the demo): heartbeats into the sidecar beside its result, then answers `SURVIVES` with a Basis for every
 * id on the prompt's `Batch:` line (written whole: temp + rename). The provider named by
 * `STUB_FAIL_FIRST` fails its first call (exit 1), so the run goes through a failure and its retry round;
 * the one named by `STUB_HEDGE_FIRST` hedges its first verdict of its first call (`SURVIVES, probably`:
 * refused), so the run goes through a repair dispatch — of its first call whose result path contains
 * `STUB_HEDGE_IN` when that is set (`gap-vote`: the gap vote's repair); `STUB_HEDGE_AGAIN` set: every such call (refused again).
 * `STUB_VERDICTS` (space-separated `<provider>:<id>=<WORD>`) gives that provider another verdict word on that id,
 * so a run's workers disagree (the demo's view shows every status).
 */
export const BATCH_ANSWER_STUB = `#!/bin/sh
prompt=$(cat)
audit="\${2%.md}.audit.md"
mkdir -p "$(dirname "$2")"
printf -- '- PROGRESS: %s phase reading the prompt\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$audit"
me=$(basename "$(dirname "$0")")
if [ "$STUB_FAIL_FIRST" = "$me" ] && [ ! -e "$HOME/failed-once-$me" ]; then : > "$HOME/failed-once-$me"; echo "stub: authentication required" >&2; exit 1; fi
sleep "\${STUB_SLEEP:-0}"
ids=$(printf '%s\\n' "$prompt" | sed -n 's/^Batch: //p' | head -1 | tr ',' ' ')
hedge=''
if [ "$STUB_HEDGE_FIRST" = "$me" ] && { [ ! -e "$HOME/hedged-once-$me" ] || [ -n "$STUB_HEDGE_AGAIN" ]; }; then case "$2" in *"$STUB_HEDGE_IN"*) : > "$HOME/hedged-once-$me"; hedge=', probably';; esac; fi
{ for id in $ids; do v=SURVIVES; for pick in $STUB_VERDICTS; do case "$pick" in "$me:$id="*) v=\${pick#*=};; esac; done; printf '### %s\\n**Verdict**: %s%s\\n**Basis**: the stub read %s and judged it %s.\\n\\n' "$id" "$v" "$hedge" "$id" "$v"; hedge=''; done; } > "$2.tmp.$$" && mv "$2.tmp.$$" "$2"
`;
