/**
 * The umbrella's command words (docs/contracts.md §2 table): which package's
 * `main` runs, and which words are put before the user's remaining argv.
 * The tool word is stripped where the bin is named after it
 * (`okstra team dispatch` → `okstra-team dispatch`) and kept as the bin's
 * sub-command otherwise (`okstra worker-state transition` →
 * `okstra-team worker-state transition`).
 */
export interface Route {
  word: string;
  /** npm package (and bin) name of the tool. */
  pkg: string;
  /** Words inserted before the user's remaining arguments. */
  prefix: readonly string[];
  summary: string;
}

export const ROUTES: readonly Route[] = [
  { word: 'convergence', pkg: 'okstra-convergence', prefix: [], summary: 'seed, plan, collect, apply and finalize convergence rounds' },
  { word: 'plan-items', pkg: 'okstra-plan-items', prefix: [], summary: 'extract, validate and verdict the plan-body verification queue' },
  {
    word: 'incremental-scope',
    pkg: 'okstra-plan-items',
    prefix: ['incremental-scope'],
    summary: 'decide re-verify vs carry-forward scope of a clarification re-run',
  },
  { word: 'worker-liveness', pkg: 'okstra-worker-liveness', prefix: [], summary: 'judge pending workers live / stalled / did-not-launch' },
  { word: 'run-audit', pkg: 'okstra-run-audit', prefix: ['run-audit'], summary: "check every run's artifacts against progress invariants" },
  { word: 'worker-audit-check', pkg: 'okstra-run-audit', prefix: ['worker-audit-check'], summary: 'apply the worker audit-sidecar rules mid-run' },
  { word: 'error-issue', pkg: 'okstra-run-audit', prefix: ['error-issue'], summary: 'plan and (after approval) submit anonymized GitHub issues' },
  { word: 'team', pkg: 'okstra-team', prefix: [], summary: 'dispatch, await and tear down worker panes' },
  { word: 'worker-state', pkg: 'okstra-team', prefix: ['worker-state'], summary: 'atomically transition one persisted worker row' },
];

/** The route for `word`, or undefined. */
export function findRoute(word: string): Route | undefined {
  return ROUTES.find((r) => r.word === word);
}

/**
 * Commands of the wider okstra runtime (bundle rendering, preflight, install,
 * the host runners…) that prompts and skills name but this repository does
 * not build. The umbrella answers them with "belongs to the okstra runtime"
 * instead of "unknown command", and the prompt contract accepts them by word
 * only. A new word here is a deliberate decision (docs/prompts.md).
 */
export const RUNTIME_WORDS: readonly string[] = [
  'render-bundle',
  'git-reconcile',
  'preflight',
  'codex-run',
  'codex-dispatch',
  'run',
  'setup',
  'profile',
  'stage-map',
  'user-response',
  'recap',
  'incremental-carry',
  'plan-validate',
  'worktree-lookup',
];
