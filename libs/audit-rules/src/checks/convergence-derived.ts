import { basename } from 'node:path';
import { convergenceFinalStatePath, convergenceGroupsPath, reverifyResultPath, roundPlanPath, roundResultsPath, joinPath as join } from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import { type Finding, type RunUnderAudit } from '../run-context.js';
import { appendAll } from '@okstra/core';

type Outcome = { workerId?: unknown; status?: unknown; verdicts?: Array<{ findingId?: unknown; verdict?: unknown }> };

const readJson = async (run: RunUnderAudit, path: string): Promise<unknown> => {
  try {
    return parseJsonText((await run.files.readText(path)) ?? '');
  } catch {
    return undefined; // an unparseable state file is invariant 0's / 8's
  }
};

/**
 * Invariant 29 `derived-mismatch`, convergence (seed rule S17, 000 docs/cli.md convergence:
 * `collect-results` reads the round's responses into the results file that `apply-round`
 * folds into the state the final state is finalized from):
 * - each saved `state/convergence-results-r<N>-<type>-<seq>.json` with its saved round plan is
 *   re-collected from the saved `worker-results/<w>-reverify-r<N>-<type>-<seq>.md` of the workers
 *   the results record `completed`, with `readRoundResults` of libs/convergence (the reader
 *   `collect-results` uses; called, never copied), and each worker's votes (finding, verdict) are
 *   compared; a completed worker whose response is gone is a violation, and so is one whose
 *   response the reader refuses while the results record votes for it (collect-results exits 2
 *   on a dispatched finding with no verdict, a verdict for a finding not dispatched to that worker
 *   or a vote with no explanation: saved votes were collected from nothing);
 * - a final state claiming `rounds: N` has, for each round 1…N, a saved results file or at least
 *   one saved reverify response of that round.
 * Loaded only for a run that has a results file or a final state with rounds.
 */
export async function checkConvergenceDerived(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  const add = (message: string, evidence: string[]) => out.push({ invariant: 'derived-mismatch', message, evidence });
  const names = run.files.list(join(run.runDir, 'state'));
  const suffix = `-${run.taskType}-${run.seq}.json`;
  const rounds = names.flatMap((n) => {
    const m = /^convergence-results-r([1-9][0-9]*)(-.+)$/.exec(n);
    return m && m[2] === suffix ? [Number(m[1])] : [];
  });
  for (const round of rounds.sort((a, b) => a - b)) {
    const resultsPath = roundResultsPath(run.runDir, round, run);
    const planPath = roundPlanPath(run.runDir, round, run);
    if (!run.files.exists(planPath)) {
      add(`round ${round}: ${basename(resultsPath)} is saved without its round plan ${basename(planPath)}`, [resultsPath]);
      continue;
    }
    const [saved, plan] = [(await readJson(run, resultsPath)) as { workers?: Outcome[] } | undefined, await readJson(run, planPath)];
    if (!saved || !Array.isArray(saved.workers) || !plan) continue;
    const completed = saved.workers.filter((w) => w.status === 'completed' && typeof w.workerId === 'string');
    const responses: Array<{ workerId: string; file: string; text: string }> = [];
    for (const w of completed) {
      const file = reverifyResultPath(run.runDir, String(w.workerId), round, run);
      const text = run.files.exists(file) ? await run.files.readText(file) : null;
      if (text === null)
        add(`round ${round}: ${basename(resultsPath)} records worker '${String(w.workerId)}' completed but ${basename(file)} is not saved`, [resultsPath]);
      else responses.push({ workerId: String(w.workerId), file, text });
    }
    const { readRoundResults, RoundPlan } = await loadConvergence();
    const parsedPlan = RoundPlan.safeParse(plan);
    if (!parsedPlan.success || parsedPlan.data.queueTerminal) continue;
    let derived: ReturnType<typeof readRoundResults>;
    try {
      derived = readRoundResults({
        plan: parsedPlan.data,
        planFile: planPath,
        mode: parsedPlan.data.mode,
        responses,
        dispatches: parsedPlan.data.batches.map((b) => {
          const s = saved.workers!.find((w) => w.workerId === b.workerId);
          const status = s?.status === 'completed' && !responses.some((r) => r.workerId === b.workerId) ? 'error' : s?.status;
          return {
            workerId: b.workerId,
            status: (['completed', 'timeout', 'error', 'not-run'].includes(String(status)) ? status : 'error') as 'completed',
            durationMs: 0,
          };
        }),
      });
    } catch {
      continue; // a results file the plan does not fit is invariant 8's replay
    }
    const refused = new Set(derived.problems.map((p) => p.workerId));
    for (const w of completed) {
      const again = derived.results.workers.find((d) => d.workerId === w.workerId);
      const file = responses.find((r) => r.workerId === w.workerId)?.file;
      if (file && refused.has(String(w.workerId)) && (w.verdicts ?? []).length > 0) {
        // collect-results exits 2 on this response, so the votes saved for it were collected from nothing.
        const why = derived.problems.find((p) => p.workerId === w.workerId)!;
        add(
          `round ${round}: ${basename(resultsPath)} records worker '${String(w.workerId)}' votes, but collect-results refuses ${basename(file)} (${why.id}: ${why.message})`,
          [resultsPath, file],
        );
        continue;
      }
      if (!again || !file || refused.has(String(w.workerId))) continue;
      const key = (v: { findingId?: unknown; verdict?: unknown }) => `${String(v.findingId)} ${String(v.verdict)}`;
      const recorded = (w.verdicts ?? []).map(key).sort();
      const given = again.verdicts.map(key).sort();
      const diff = [
        ...recorded.filter((k) => !given.includes(k)).map((k) => `saved ${k}`),
        ...given.filter((k) => !recorded.includes(k)).map((k) => `response ${k}`),
      ];
      if (diff.length)
        add(`round ${round}: worker '${String(w.workerId)}' votes in ${basename(resultsPath)} differ from ${basename(file)} (${diff.join('; ')})`, [
          resultsPath,
          file,
        ]);
    }
  }
  const finalPath = convergenceFinalStatePath(run.runDir, run);
  if (!run.files.exists(finalPath)) return out;
  const final = (await readJson(run, finalPath)) as { rounds?: unknown } | undefined;
  const claimed = typeof final?.rounds === 'number' && Number.isInteger(final.rounds) ? Math.min(final.rounds, 100) : 0;
  const results = names.filter((n) => n.startsWith('convergence-results-r'));
  const responses = run.files.list(join(run.runDir, 'worker-results'));
  for (let round = 1; round <= claimed; round++) {
    const tail = `-reverify-r${round}-${run.taskType}-${run.seq}.md`;
    if (results.includes(basename(roundResultsPath(run.runDir, round, run))) || responses.some((n) => n.endsWith(tail))) continue;
    add(`the final state claims round ${round} but the run saved no results file and no reverify response of that round`, [finalPath]);
  }
  if (out.length === 0 && claimed > 0) appendAll(out, await reapply(run, final as FinalLike, claimed, finalPath));
  return out;
}

type FinalLike = {
  criticApplied?: unknown;
  findings?: Array<{ id?: unknown; status?: unknown; decidedInRound?: unknown; votes?: Array<{ round?: unknown; workerId?: unknown; verdict?: unknown }> }>;
};
const votesOf = (f: { votes?: Array<{ round?: unknown; workerId?: unknown; verdict?: unknown }> } | undefined) =>
  (f?.votes ?? [])
    .map((v) => `r${String(v.round)} ${String(v.workerId)} ${String(v.verdict)}`)
    .sort()
    .join(', ');

/**
 * Re-apply the saved rounds with the reducers of libs/convergence (seed from the saved groups file →
 * `applyRound` per saved plan + results → `finalizeState`) and compare each finding's status,
 * decision round and votes (round, worker, verdict) with the saved final state. Only when the groups file and every claimed round's plan
 * and results are saved and no critic batch was applied (its batch is not a saved round); a saved
 * document the reducers refuse is left to invariant 8.
 */
async function reapply(run: RunUnderAudit, final: FinalLike, claimed: number, finalPath: string): Promise<Finding[]> {
  if (final.criticApplied !== false || !Array.isArray(final.findings)) return [];
  const groupsPath = convergenceGroupsPath(run.runDir, run);
  const paths = Array.from({ length: claimed }, (_, i) => [roundPlanPath(run.runDir, i + 1, run), roundResultsPath(run.runDir, i + 1, run)] as const);
  if (!run.files.exists(groupsPath) || paths.some(([p, r]) => !run.files.exists(p) || !run.files.exists(r))) return [];
  const { createWorkingState, applyRound, finalizeState } = await import('@okstra/convergence');
  let derived: ReturnType<typeof finalizeState>;
  try {
    let state = createWorkingState((await readJson(run, groupsPath)) as Parameters<typeof createWorkingState>[0]);
    for (const [plan, results] of paths)
      state = applyRound(
        state,
        (await readJson(run, plan)) as Parameters<typeof applyRound>[1],
        (await readJson(run, results)) as Parameters<typeof applyRound>[2],
      );
    derived = finalizeState(state);
  } catch {
    return [];
  }
  const out: Finding[] = [];
  for (const f of derived.findings) {
    const saved = final.findings.find((x) => x.id === f.id);
    const was = saved ? `${String(saved.status)} (round ${String(saved.decidedInRound)}; votes ${votesOf(saved)})` : 'absent';
    const is = `${f.status} (round ${f.decidedInRound}; votes ${votesOf(f)})`;
    if (was !== is)
      out.push({
        invariant: 'derived-mismatch',
        message: `finding ${f.id}: the final state says ${was} but re-applying the saved rounds gives ${is}`,
        evidence: [finalPath, groupsPath],
      });
  }
  return out;
}

/** The collect code and the plan schema, loaded once and only for a run that needs them. */
async function loadConvergence() {
  const [{ readRoundResults }, { RoundPlan }] = await Promise.all([import('@okstra/convergence'), import('@okstra/schemas/convergence')]);
  return { readRoundResults, RoundPlan };
}
