// issue #25 item 4: `collect-verdicts --repair` — a refused plan-verify answer gets one repair
// dispatch (its prompt and jobs file, nothing else written, still exit 2); the restated answer is
// read; refused again, or a repair that did not complete, is collected as error (out of contributors).
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { jobsFileArtifact } from '@okstra/schemas/jobs-file';
import { parseArtifact } from '@okstra/state-file';
import { REPO, runBin } from '../test-support/run-bin.js';

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
const S = 'implementation-planning-001';
const RUN = '.okstra/tasks/payments/refund-timeout/runs/implementation-planning';

/** Every file under `dir` (relative path → bytes as text). */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void =>
    readdirSync(d).forEach((n) =>
      statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : (out[relative(dir, join(d, n))] = readFileSync(join(d, n), 'utf8')),
    );
  walk(dir);
  return out;
}

/** A copy of the sample project whose codex plan-verify answer hedges one verdict. */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'okstra-plan-repair-'));
  made.push(root);
  cpSync(join(REPO, 'examples/sample-project'), root, { recursive: true });
  const run = join(root, RUN);
  const codex = join(run, `worker-results/codex-plan-verify-${S}.md`);
  const answer = readFileSync(codex, 'utf8');
  const hedged = answer.replace(/- \*\*Verdict\*\*: AGREE(\r?\n)- \*\*Basis\*\*: `errors\.ts:3`/, '- **Verdict**: AGREE, probably$1- **Basis**: `errors.ts:3`');
  expect(hedged).not.toBe(answer);
  writeFileSync(codex, hedged);
  const teamState = join(run, `state/team-state-${S}.json`);
  const setRow = (id: string, patch: Record<string, unknown>) => {
    const doc = JSON.parse(readFileSync(teamState, 'utf8'));
    Object.assign(
      doc.workers.find((w: { workerId: string }) => w.workerId === id),
      patch,
    );
    writeFileSync(teamState, JSON.stringify(doc, null, 2));
  };
  const collect = (results = ['claude', 'codex'], extra = ['--repair']) =>
    runBin(
      [
        'collect-verdicts',
        ...results.flatMap((id) => ['--result', `${id}=${RUN}/worker-results/${id}-plan-verify-${S}.md`]),
        '--items',
        `${RUN}/state/plan-items-${S}.json`,
        '--output',
        `${RUN}/state/plan-verdicts-${S}.json`,
        ...extra,
      ],
      root,
    );
  const verdicts = () => JSON.parse(readFileSync(join(run, `state/plan-verdicts-${S}.json`), 'utf8'));
  return { root, run, codex, answer, hedged, setRow, collect, verdicts };
}

describe('collect-verdicts --repair (docs/plan-items.md "Repair dispatch")', () => {
  it('a refused answer: exit 2; only the repair prompt and the jobs file (repair-plan-verify) are written', () => {
    const p = project();
    const before = files(p.root);
    expect(p.collect(['claude', 'codex'], []).code).toBe(2);
    expect(files(p.root)).toEqual(before);
    const r = p.collect();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/worker codex: item P-Step-1-2: /);
    const after = files(p.root);
    const added = Object.keys(after).filter((k) => !(k in before));
    expect(added.sort()).toEqual([`${RUN}/prompts/codex-prompt-repair-plan-verify-${S}.md`, `${RUN}/state/repair-jobs-plan-verify-${S}.json`]);
    expect(Object.keys(before).filter((k) => after[k] !== before[k])).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({ refused: ['codex'], repair: { dispatchKind: 'repair-plan-verify' } });
    const jobs = parseArtifact(after[`${RUN}/state/repair-jobs-plan-verify-${S}.json`]!, jobsFileArtifact);
    expect(jobs.jobs).toEqual([
      {
        workerId: 'codex',
        provider: 'codex',
        role: 'Codex worker',
        modelExecutionValue: JSON.parse(after[`${RUN}/state/team-state-${S}.json`]!).workers.find((w: { workerId: string }) => w.workerId === 'codex').model,
        promptPath: `${RUN}/prompts/codex-prompt-repair-plan-verify-${S}.md`,
        resultPath: `${RUN}/worker-results/codex-plan-verify-${S}.md`,
        workerResultPath: `${RUN}/worker-results/codex-plan-verify-${S}.md`,
        completionPaths: [`${RUN}/worker-results/codex-plan-verify-${S}.md`],
      },
    ]);
    const prompt = after[`${RUN}/prompts/codex-prompt-repair-plan-verify-${S}.md`]!;
    expect(prompt).toContain(p.hedged.trimEnd());
    expect(prompt).toContain('## How to answer (plan-body verification)');
    expect(prompt).toMatch(/^Batch: P-Opt-1, P-Opt-2, P-Step-1-1, /m);
  });

  it('after the repair the restated answer is read; refused again or a failed repair: out of the contributors, no second repair', () => {
    const p = project();
    expect(p.collect().code).toBe(2);
    const jobsFile = join(p.run, `state/repair-jobs-plan-verify-${S}.json`);
    const jobs = readFileSync(jobsFile, 'utf8');
    p.setRow('codex', { dispatchKind: 'repair-plan-verify', status: 'completed' });
    const again = p.collect();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ contributors: ['claude'], verdicts: 25, repairs: [{ workerId: 'codex', outcome: 'refused' }] });
    expect(p.verdicts().repairs[0]).toMatchObject({ dispatchKind: 'repair-plan-verify', problems: [expect.stringMatching(/item P-Step-1-2/)] });
    expect(readFileSync(jobsFile, 'utf8')).toBe(jobs);

    writeFileSync(p.codex, p.answer);
    const read = p.collect();
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ contributors: ['claude', 'codex'], verdicts: 50, repairs: [{ workerId: 'codex', outcome: 'read' }] });

    p.setRow('codex', { status: 'timeout', reason: 'deadline' });
    const failed = p.collect(['claude']);
    expect(failed.code, failed.stderr).toBe(0);
    expect(JSON.parse(failed.stdout)).toMatchObject({ contributors: ['claude'], repairs: [{ workerId: 'codex', outcome: 'timeout' }] });
  });

  it('--repair needs the queue of a run (exit 2, nothing written)', () => {
    const p = project();
    cpSync(join(p.run, `state/plan-items-${S}.json`), join(p.root, 'items.json'));
    const r = runBin(
      ['collect-verdicts', '--result', `codex=${RUN}/worker-results/codex-plan-verify-${S}.md`, '--items', 'items.json', '--output', '-', '--repair'],
      p.root,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--repair needs the run queue at <run-dir>\/state\/plan-items-<type>-<seq>\.json/);
  });
});
