// okstra-convergence targets (issue 3), measured through the real bin:
// - apply-round and plan-round scale linearly: 10,000 findings × 4 workers ≤ 12× 1,000 findings;
// - validate --kind working over 10 applied rounds ≤ 1.5× the time of applying them;
// - the replay every command runs on load (issue 11: seed, plan-round, apply-round,
//   apply-critic-gaps refuse a state that does not replay), in-process at 10,000
//   findings × 10 rounds, ≤ 1.5× applying those rounds with applyRound.
// Inputs are generated in-process with @okstra/convergence (not timed); every
// timed run is a fresh `node okstra-convergence …` process on a fresh copy of its input.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyRound, createWorkingState, planRound, replayWorkingState } from '@okstra/convergence';
import { stableStringify } from '@okstra/cli-kit';
import { binPath, median, medianOf, timeCommand } from './lib.mjs';

export const title = 'okstra-convergence (median wall time through the bin)';

const BIN = binPath('okstra-convergence');
const WORKERS = 4;

/** Groups with `n` findings spread over `WORKERS` analysers (one author each). */
function groups(n, roundLimit = 3) {
  return {
    schemaVersion: '1.0',
    kind: 'convergence-groups',
    mode: 'adversarial',
    roundLimit,
    roster: Array.from({ length: WORKERS }, (_, i) => ({ workerId: `w${i + 1}`, provider: 'claude', role: 'analyser' })),
    findings: Array.from({ length: n }, (_, i) => ({
      id: `F-${String(i + 1).padStart(5, '0')}`,
      title: `finding ${i + 1}`,
      claim: `claim of finding ${i + 1}, with enough text to be realistic about what a worker wrote`,
      authors: [`w${(i % WORKERS) + 1}`],
      evidence: [`src/module-${i % 97}.ts:${(i % 400) + 1}`],
    })),
  };
}

/** Complete results for `plan`; `split` makes reviewers disagree so findings stay pending. */
function results(plan, split = false) {
  return {
    schemaVersion: '1.0',
    kind: 'round-results',
    round: plan.round,
    mode: plan.mode,
    workers: plan.batches.map((b, wi) => ({
      workerId: b.workerId,
      status: 'completed',
      durationMs: 1000,
      verdicts: b.findingIds.map((id) => ({
        findingId: id,
        verdict: split && wi % 2 === 1 ? 'disagree' : 'agree',
        explanation: `${b.workerId} re-read the cited lines for ${id}`,
      })),
    })),
  };
}

const write = (path, value) => writeFileSync(path, stableStringify(value));
const dirs = [];
const tempDir = (name) => {
  const dir = mkdtempSync(join(tmpdir(), `okstra-bench-conv-${name}-`));
  dirs.push(dir);
  return dir;
};
const RUNS = 5;

function timed(args, cwd, prepare) {
  const times = [];
  for (let i = 0; i < RUNS + 1; i++) {
    prepare?.();
    const ms = timeCommand(process.execPath, [BIN, ...args], { cwd, expectCode: 0 });
    if (i > 0) times.push(ms);
  }
  return median(times);
}

function roundCosts(n) {
  const dir = tempDir(String(n));
  const state = createWorkingState(groups(n));
  const plan = planRound(state);
  write(join(dir, 'work.orig.json'), state);
  write(join(dir, 'plan.json'), plan);
  write(join(dir, 'results.json'), results(plan));
  const fresh = () => copyFileSync(join(dir, 'work.orig.json'), join(dir, 'work.json'));
  fresh();
  const planMs = timed(['plan-round', '--work-state', 'work.json', '--plan', 'plan-out.json'], dir);
  const applyMs = timed(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir, fresh);
  return { planMs, applyMs };
}

function replayCost() {
  const dir = tempDir('replay');
  let state = createWorkingState(groups(2000, 10));
  write(join(dir, 'work-r0.json'), state);
  for (let r = 1; r <= 10; r++) {
    const plan = planRound(state);
    const res = results(plan, true);
    write(join(dir, `plan-${r}.json`), plan);
    write(join(dir, `results-${r}.json`), res);
    state = applyRound(state, plan, res);
  }
  if (!state.derived.queueTerminal || state.derived.round !== 10) throw new Error('replay bench: expected 10 rounds ending terminal');
  const applyAll = () => {
    copyFileSync(join(dir, 'work-r0.json'), join(dir, 'work.json'));
    let total = 0;
    for (let r = 1; r <= 10; r++) {
      total += timeCommand(process.execPath, [BIN, 'apply-round', '--work-state', 'work.json', '--plan', `plan-${r}.json`, '--results', `results-${r}.json`], {
        cwd: dir,
        expectCode: 0,
      });
    }
    return total;
  };
  const applyTimes = [];
  const validateTimes = [];
  for (let i = 0; i < 3; i++) {
    applyTimes.push(applyAll());
    validateTimes.push(timeCommand(process.execPath, [BIN, 'validate', '--state', 'work.json', '--kind', 'working'], { cwd: dir, expectCode: 0 }));
  }
  return { applyMs: median(applyTimes), validateMs: median(validateTimes) };
}

/** In-process: replaying 10 stored rounds of 10,000 findings against applying them (the same inputs, the same functions). */
async function inProcessReplay() {
  const start = createWorkingState(groups(10_000, 10));
  const rounds = [];
  let state = start;
  for (let r = 1; r <= 10; r++) {
    const plan = planRound(state);
    const res = results(plan, true);
    rounds.push([plan, res]);
    state = applyRound(state, plan, res);
  }
  const applyMs = await medianOf(
    () => {
      let s = start;
      for (const [plan, res] of rounds) s = applyRound(s, plan, res);
    },
    { runs: 3, warmup: 1 },
  );
  const replayMs = await medianOf(() => replayWorkingState(state), { runs: 3, warmup: 1 });
  return { applyMs, replayMs };
}

export default async function () {
  const small = roundCosts(1_000);
  const large = roundCosts(10_000);
  const replay = replayCost();
  const inProcess = await inProcessReplay();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  return [
    { name: 'apply-round 10,000 findings × 4', ms: large.applyMs, baselineName: '1,000 findings', baselineMs: small.applyMs, target: 12 },
    { name: 'plan-round 10,000 findings × 4', ms: large.planMs, baselineName: '1,000 findings', baselineMs: small.planMs, target: 12 },
    {
      name: 'validate --kind working (10 rounds, 2,000 findings)',
      ms: replay.validateMs,
      baselineName: 'applying the 10 rounds (bin; each apply-round replays on load)',
      baselineMs: replay.applyMs,
      target: 1.5,
    },
    {
      name: 'replay on load (10 rounds, 10,000 findings × 4, in-process)',
      ms: inProcess.replayMs,
      baselineName: 'applying the 10 rounds (applyRound)',
      baselineMs: inProcess.applyMs,
      target: 1.5,
    },
  ];
}
