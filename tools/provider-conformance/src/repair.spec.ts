import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killServer, privateSocket } from '@okstra/team-run/test-support';
import { startScriptedModel, structuredAnswerStep, type RecordedRequest, type Step } from './support/scripted-model.js';
import { makeHome, removeProjects } from './support/project.js';
import { runNode, writeFileStep } from './support/steps.js';
import { CODEX_MODEL, scriptedWorkerEnv } from './support/real-cli.js';

// The repair dispatch with the real CLIs (issue #25 item 4, docs/convergence.md "Repair dispatch"):
// real claude and real codex answer round 1 of the sample run's convergence through their
// structured output (docs/providers.md "Structured output") with an object that leaves a
// dispatched finding without a vote (their prose answer, hedged, is never read), `collect-results
// --repair` writes their repair prompts and jobs file, `okstra-team dispatch --jobs-file` runs the
// repair as a fresh one-shot session of each CLI (schema-bound too), the scripted model restates
// the whole answer, and the next collect reads it — failure counts unchanged.
const require = createRequire(import.meta.url);
const TEAM_BIN = join(dirname(require.resolve('okstra-team/package.json')), 'dist', 'bin.js');
const CONV_BIN = join(dirname(require.resolve('okstra-convergence/package.json')), 'dist', 'bin.js');
const SAMPLE = fileURLToPath(new URL('../../../examples/sample-project', import.meta.url));
const socket = privateSocket();
const base = mkdtempSync(join(tmpdir(), 'okstra-repair-'));
afterAll(() => {
  killServer(socket);
  removeProjects();
  rmSync(base, { recursive: true, force: true });
});

const root = join(base, 'project');
const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const S = 'error-analysis-001';
const abs = (p: string) => join(root, p);
const st = (name: string) => abs(`${RUN}/state/${name}`);
const result = (id: string) => abs(`${RUN}/worker-results/${id}-reverify-r1-${S}.md`);
const WORKERS = ['claude', 'codex'] as const;
const MODEL = { claude: 'sonnet', codex: CODEX_MODEL };

/** The answer to a batch: one block per id; `refused` hedges the first verdict (a refusal a restatement mends). */
function answer(id: string, ids: readonly string[], refused: boolean): string {
  return ids
    .map((f, i) => `### ${f}\n**Verdict**: SURVIVES${refused && i === 0 ? ', probably' : ''}\n**Basis**: ${id} re-read the code cited for ${f}.\n`)
    .join('\n');
}

/** The answer object to a batch: one vote per id, but `refused` leaves the first id out (a refusal a restatement mends). */
function answerObject(id: string, ids: readonly string[], refused: boolean) {
  return { votes: ids.slice(refused ? 1 : 0).map((f) => ({ id: f, verdict: 'SURVIVES', basis: `${id} re-read the code cited for ${f}.` })) };
}

/** Which worker and which dispatch a model request belongs to, read from its prompt's title line. */
function route(r: RecordedRequest): { id: (typeof WORKERS)[number]; repair: boolean; ids: string[] } | null {
  for (const id of WORKERS) {
    const repair = r.text.includes(`Repair of your reverify-r1 answer: ${id}`);
    if (repair || r.text.includes(`Convergence re-verification, round 1: ${id}`)) {
      const ids = /Batch: ((?:F-\d+(?:, )?)+)/.exec(r.text)?.[1]?.split(', ') ?? [];
      return { id, repair, ids };
    }
  }
  return null;
}

describe('the repair dispatch with the real claude and codex CLIs (issue #25 item 4)', () => {
  it('a refused round-1 answer of each CLI is restated by a fresh one-shot repair session and read; no failure counted', async () => {
    const api = await startScriptedModel((results, request) => {
      const w = route(request);
      if (!w) return { text: 'ok' };
      const steps: Step[] = [
        writeFileStep(w.id, result(w.id), answer(w.id, w.ids, !w.repair)),
        structuredAnswerStep(request, answerObject(w.id, w.ids, !w.repair)),
      ];
      return steps[Math.min(results.length, steps.length - 1)]!;
    });
    try {
      cpSync(SAMPLE, root, { recursive: true });
      // The sample run, led externally into tmux panes, its analysers on the real CLIs' model names.
      const manifestPath = abs(`${RUN}/manifests/run-manifest-${S}.json`);
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      Object.assign(manifest, { leadRuntime: 'external', hostRuntime: 'external', terminalBackend: 'tmux-pane' });
      for (const a of manifest.workerAssignments) a.runner = 'cli-wrapper';
      writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
      const home = makeHome();
      const env = await scriptedWorkerEnv(home, api.url, socket, 250);
      const conv = (args: string[]) => runNode([CONV_BIN, ...args], { env, cwd: root });
      const team = (args: string[]) => runNode([TEAM_BIN, ...args, '--project-root', root, '--run-manifest', manifestPath], { env, cwd: root });
      const work = st(`convergence-work-${S}.json`);
      const plan = st(`convergence-plan-r1-${S}.json`);
      const output = st(`convergence-results-r1-${S}.json`);
      const seeded = await conv([
        'seed',
        '--groups',
        st(`convergence-groups-${S}.json`),
        '--work-state',
        work,
        '--final-state',
        st(`convergence-final-${S}.json`),
        '--migration-dir',
        st('mig'),
      ]);
      expect(seeded.status, seeded.stderr).toBe(0);
      expect((await conv(['plan-round', '--work-state', work, '--plan', plan])).status).toBe(0);
      expect((await conv(['render-prompts', '--plan', plan])).status).toBe(0);
      const rel = (p: string) => p.slice(root.length + 1);
      const jobs = WORKERS.map((id) => ({
        workerId: id,
        provider: id,
        role: 'worker-reverify-r1',
        modelExecutionValue: MODEL[id],
        promptPath: `${RUN}/prompts/${id}-prompt-reverify-r1-${S}.md`,
        resultPath: rel(result(id)),
        workerResultPath: rel(result(id)),
        completionPaths: [rel(result(id))],
      }));
      writeFileSync(st(`reverify-jobs-r1-${S}.json`), JSON.stringify({ schemaVersion: '1.0', dispatchKind: 'reverify-r1', jobs }, null, 2));

      // Round 1: both CLIs answer in a refused form.
      expect((await team(['dispatch', '--jobs-file', st(`reverify-jobs-r1-${S}.json`)])).status).toBe(0);
      const first = JSON.parse((await team(['await', '--json'])).stdout) as { allCompleted: boolean; dispatch: string[] };
      expect(first.allCompleted, JSON.stringify(first)).toBe(true);
      const collect = () =>
        conv([
          'collect-results',
          '--plan',
          plan,
          ...WORKERS.flatMap((id) => ['--result', `${id}=${result(id)}`]),
          ...dispatchFlags,
          '--output',
          output,
          '--repair',
        ]);
      let dispatchFlags = first.dispatch.flatMap((d) => ['--dispatch', d]);
      const refused = await collect();
      expect(refused.status, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/worker claude: finding F-\d+: .*; and 1 more: .*worker codex: finding F-\d+/);
      const repair = JSON.parse(refused.stdout) as { refused: string[]; repair: { dispatchKind: string; jobsFile: string } };
      expect(repair).toMatchObject({
        refused: ['claude', 'codex'],
        repair: { dispatchKind: 'repair-reverify-r1', jobsFile: st(`repair-jobs-reverify-r1-${S}.json`) },
      });
      const refusedText = Object.fromEntries(WORKERS.map((id) => [id, readFileSync(result(id), 'utf8')]));

      // The repair: a fresh dispatch of each CLI; await judges it with reverify-r1's round.
      const requestsBefore = api.requests().length;
      const started = Date.now();
      const d = await team(['dispatch', '--jobs-file', repair.repair.jobsFile]);
      expect(d.status, d.stderr).toBe(0);
      const second = JSON.parse((await team(['await', '--json'])).stdout) as {
        allCompleted: boolean;
        round: string;
        dispatch: string[];
        workers: Array<{ workerId: string; dispatchKind: string; durationMs: number }>;
      };
      const roundTrip = Date.now() - started;
      expect(second, JSON.stringify(second)).toMatchObject({ allCompleted: true, round: 'reverify-r1' });
      expect(second.workers.map((w) => [w.workerId, w.dispatchKind])).toEqual([
        ['claude', 'repair-reverify-r1'],
        ['codex', 'repair-reverify-r1'],
      ]);
      console.log(`repair round trip: ${roundTrip} ms; ${second.workers.map((w) => `${w.workerId} ${w.durationMs} ms`).join(', ')}`);

      // A fresh one-shot session: no repair request carries the round-1 conversation (its prompt or its tool calls).
      const repairRequests = api
        .requests()
        .slice(requestsBefore)
        .filter((r) => r.answered === 'step');
      for (const id of WORKERS) {
        const mine = repairRequests.filter((r) => route(r)?.id === id);
        expect(mine.length, id).toBeGreaterThan(0);
        expect(new Set(mine.map((r) => r.api)), id).toEqual(new Set([id === 'claude' ? 'anthropic' : 'openai']));
        expect(readFileSync(abs(`${RUN}/prompts/${id}-prompt-repair-reverify-r1-${S}.md`), 'utf8'), id).toContain(refusedText[id]!.trimEnd());
        expect(
          mine.every((r) => route(r)!.repair),
          id,
        ).toBe(true);
        expect(
          mine.some((r) => r.step === 0),
          id,
        ).toBe(true);
        for (const r of mine) expect(r.text.includes(`Convergence re-verification, round 1: ${id}`), id).toBe(false);
        // The refused answer was moved aside, not lost; the prompt quotes it.
        // (claude's attempt-1 is the round-1 file the sample ships, moved aside by round 1.)
        expect(readFileSync(`${result(id)}.attempt-${id === 'claude' ? 2 : 1}`, 'utf8'), id).toBe(refusedText[id]);
      }

      dispatchFlags = second.dispatch.flatMap((x) => ['--dispatch', x]);
      const read = await collect();
      expect(read.status, read.stderr).toBe(0);
      expect((JSON.parse(read.stdout) as { workers: Array<{ repair?: string; status: string }> }).workers.map((w) => [w.status, w.repair])).toEqual([
        ['completed', 'read'],
        ['completed', 'read'],
      ]);
      expect((await conv(['apply-round', '--work-state', work, '--plan', plan, '--results', output])).status).toBe(0);
      // Failure counts unchanged: team-state rows and the convergence roster.
      const rows = (JSON.parse(readFileSync(st(`team-state-${S}.json`), 'utf8')) as { workers: Array<{ workerId: string; failures?: number }> }).workers;
      expect(WORKERS.map((id) => rows.find((r) => r.workerId === id)!.failures ?? 0)).toEqual([0, 0]);
      const roster = (JSON.parse(readFileSync(work, 'utf8')) as { derived: { workers: Array<{ workerId: string; failures: number }> } }).derived.workers;
      expect(WORKERS.map((id) => roster.find((w) => w.workerId === id)!.failures)).toEqual([0, 0]);
      expect((await team(['teardown'])).status).toBe(0);
    } finally {
      await api.close();
    }
  }, 150_000);
});
