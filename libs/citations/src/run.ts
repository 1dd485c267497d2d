/**
 * Citations of one run's worker answers: the run's project at the commit its manifest records, and
 * each answer's evidence file (the wrapper writes it beside the answer's prompt).
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { projectRootOf } from '@okstra/paths';
import { runManifestArtifact } from '@okstra/schemas/run-manifest';
import { tryReadArtifact } from '@okstra/state-file';
import type { CitationReport } from './check.js';
import { openCitationChecker, type CitationChecker } from './project.js';

/**
 * The checker for a run directory (`runs/<type>/[stage-<N>/]`): its project (the `.okstra` tree's
 * parent), at the run manifest's `sourceCommit` (`manifests/run-manifest-<type>-<seq>.json`) when
 * it records one, else the working tree. Unchecked when the directory is in no project.
 */
export function runCitationChecker(runDir: string, run: { taskType: string; seq: string | number }): CitationChecker {
  const root = projectRootOf(runDir);
  if (!root) return { status: 'unchecked', reason: 'the run directory is not inside a project (.okstra/)' };
  const seq = typeof run.seq === 'number' ? String(run.seq).padStart(3, '0') : run.seq;
  let commit: string | null = null;
  try {
    commit = tryReadArtifact(join(runDir, 'manifests', `run-manifest-${run.taskType}-${seq}.json`), runManifestArtifact)?.sourceCommit ?? null;
  } catch {
    // a run manifest that is not a regular file records no commit
  }
  return openCitationChecker(root, commit);
}

/**
 * The evidence file of a worker answer `<run-dir>/worker-results/<name>.md`: the wrapper's
 * `<run-dir>/prompts/<worker>-prompt-<rest>.evidence.json` whose name, `-prompt` taken out, is
 * `<name>` (`claude-reverify-r1-error-analysis-001.md` ← `claude-prompt-reverify-r1-error-analysis-001.evidence.json`).
 * @returns its path, or null when there is none (a native-session worker: was-read unknown).
 */
export function evidenceFileOf(answerPath: string): string | null {
  const name = basename(answerPath).replace(/\.md$/, '');
  const prompts = join(dirname(dirname(answerPath)), 'prompts');
  let names: string[];
  try {
    names = readdirSync(prompts);
  } catch {
    return null;
  }
  const hit = names.find((n) => n.endsWith('.evidence.json') && n.slice(0, -'.evidence.json'.length).replace('-prompt-', '-') === name);
  return hit ? join(prompts, hit) : null;
}

/** What a collector reports beside a worker's votes: how its citations stand (a signal, never a change of vote). */
export type CitationSignal =
  | { status: 'checked'; cited: number; holding: number; notHolding: Array<{ citation: string; problem: string }>; notRead: string[] }
  | { status: 'unchecked'; reason: string };

/** The {@link CitationSignal} of one worker answer (its text and path) under `checker`. */
export function citationSignal(checker: CitationChecker, answerPath: string, text: string): CitationSignal {
  if (checker.status === 'unchecked') return { status: 'unchecked', reason: checker.reason };
  const { citations } = checker.check(text, evidenceFileOf(answerPath));
  return {
    status: 'checked',
    cited: citations.length,
    holding: citations.filter((c) => c.holds).length,
    notHolding: citations.filter((c) => !c.holds).map((c: CitationReport) => ({ citation: c.citation, problem: c.problem! })),
    notRead: citations.filter((c) => c.read === 'not-read').map((c) => c.citation),
  };
}

/**
 * The {@link CitationSignal} of each worker answer (path and text), for a collector's output: the
 * checker of each answer's run (`<run-dir>/worker-results/<name>.md`; the run is the manifest whose
 * `<type>-<seq>` ends `<name>`), opened once per run directory.
 */
export function citationSignals(answers: ReadonlyArray<{ workerId: string; path: string; text: string }>): Record<string, CitationSignal> {
  const checkers = new Map<string, CitationChecker>();
  const out: Record<string, CitationSignal> = {};
  for (const a of answers) {
    const runDir = dirname(dirname(a.path));
    const name = basename(a.path).replace(/\.md$/, '');
    let manifests: string[] = [];
    try {
      manifests = readdirSync(join(runDir, 'manifests'));
    } catch {
      // no manifests: the working tree
    }
    const run = manifests.map((m) => /^run-manifest-(.+)-([0-9]{3,})\.json$/.exec(m)).find((m) => m && name.endsWith(`-${m[1]}-${m[2]}`));
    const key = `${runDir}\0${run?.[0] ?? ''}`;
    let checker = checkers.get(key);
    if (!checker) checkers.set(key, (checker = run ? runCitationChecker(runDir, { taskType: run[1]!, seq: run[2]! }) : openFor(runDir)));
    out[a.workerId] = citationSignal(checker, a.path, a.text);
  }
  return out;
}

function openFor(runDir: string): CitationChecker {
  const root = projectRootOf(runDir);
  return root ? openCitationChecker(root) : { status: 'unchecked', reason: 'the answer is not inside a project (.okstra/)' };
}
