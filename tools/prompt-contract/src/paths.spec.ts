import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as paths from '@okstra/paths';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, textFiles } from './corpus.js';

/**
 * libs/paths owns every `.okstra` file name (docs/contracts.md §4). Each
 * `<run>/…` path a text names, with its placeholders filled in, must be one
 * libs/paths builds — so a prompt never sends a lead to a file the tools do
 * not read or write.
 */
const RUN = '/p/.okstra/tasks/g/t/runs/error-analysis';
const ref = { taskType: 'error-analysis', seq: 1 };
const N = 2;

/** Every run-level path libs/paths builds, for workers `claude`, `codex` and the placeholder worker. */
function built(): Set<string> {
  const out = new Set<string>([
    paths.runManifestPath(RUN, ref),
    paths.teamStatePath(RUN, ref),
    paths.finalReportDataPath(RUN, ref),
    paths.finalReportPath(RUN, ref),
    paths.reverifyJobsPath(RUN, N, ref),
    paths.reportWriterJobsPath(RUN, ref),
    paths.convergenceWorkStatePath(RUN, ref),
    paths.convergenceFinalStatePath(RUN, ref),
    paths.convergenceGroupsPath(RUN, ref),
    paths.roundPlanPath(RUN, N, ref),
    paths.roundResultsPath(RUN, N, ref),
    paths.convergenceMigrationDir(RUN),
    paths.planItemsPath(RUN, ref),
    paths.planVerdictsPath(RUN, ref),
    paths.coverageBatchPath(RUN, ref),
    paths.criticResultsPath(RUN, ref),
    paths.planVerifyJobsPath(RUN, ref),
    paths.repairJobsPath(RUN, `reverify-r${N}`, ref),
    paths.repairJobsPath(RUN, 'plan-verify', ref),
    paths.repairJobsPath(RUN, 'gap-vote', ref),
    paths.gapVoteJobsPath(RUN, ref),
    paths.awaitReportPath(RUN, `reverify-r${N}`, ref),
    paths.awaitReportPath(RUN, 'gap-vote', ref),
    paths.awaitReportPath(RUN, 'plan-verify', ref),
  ]);
  for (const kind of ['initial-retry', 'report-writer-retry']) out.add(paths.retryJobsPath(RUN, kind, ref));
  for (const w of ['claude', 'codex', 'w', 'report-writer']) {
    for (const p of [
      paths.workerResultPath(RUN, w, ref),
      paths.auditSidecarPath(RUN, w, ref),
      paths.planVerifyResultPath(RUN, w, ref),
      paths.reverifyResultPath(RUN, w, N, ref),
      paths.reverifyPromptPath(RUN, w, N, ref),
      paths.planVerifyPromptPath(RUN, w, ref),
      paths.gapVoteResultPath(RUN, w, ref),
      paths.promptPath(RUN, w, ref),
      paths.reverifyPromptPath(RUN, w, N, ref),
    ])
      out.add(p);
  }
  return out;
}

/**
 * Paths the texts name that no tool reads or writes by a fixed name, each a
 * deliberate exception: the never-prompt rule's `command cp` backup
 * example, and the state directory itself.
 */
const NOT_OWNED = ['<run>/state/convergence-work-<type>-<seq>.json.bak', '<run>/state/'];

const fill = (p: string) =>
  p
    .replaceAll('<run>', RUN)
    .replaceAll('<type>', 'error-analysis')
    .replaceAll('<seq>', '001')
    .replaceAll('<N>', String(N))
    .replaceAll('<worker>', 'w')
    .replaceAll('<kind>', 'initial-retry');

describe('run paths named by prompts/ and skills/', () => {
  const named = textFiles().flatMap((file) =>
    readFileSync(join(REPO_ROOT, file), 'utf8')
      .split('\n')
      .flatMap((text, i) => [...text.matchAll(/<run>\/[A-Za-z0-9<>._/-]*/g)].map((m) => ({ at: `${file}:${i + 1}`, path: m[0] }))),
  );

  it('are found', () => {
    expect(named.length).toBeGreaterThan(20);
  });

  it('are each a path libs/paths builds, or a listed exception', () => {
    const known = built();
    const unknown = named.filter((n) => !NOT_OWNED.includes(n.path) && !known.has(fill(n.path))).map((n) => `${n.at}: ${n.path}`);
    expect(unknown).toEqual([]);
    // A name libs/paths does not build (the round missing) is caught.
    expect(known.has(fill('<run>/state/convergence-plan-<type>-<seq>.json'))).toBe(false);
  });
});
