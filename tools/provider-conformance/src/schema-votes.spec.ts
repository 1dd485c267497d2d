import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerJsonSchema, type AnswerKind } from '@okstra/schemas/answers';
import { killServer, privateSocket } from '@okstra/team-run/test-support';
import { startScriptedModel, structuredAnswerStep, structuredOutputOf, type RecordedRequest, type Step } from './support/scripted-model.js';
import { makeHome, removeProjects } from './support/project.js';
import { runNode, writeFileStep } from './support/steps.js';
import { CODEX_MODEL, scriptedWorkerEnv } from './support/real-cli.js';

// Schema-bound votes with the real CLIs (issue #37 item 1; docs/providers.md "Structured output"):
// the reverify, gap-vote and plan-verify launches of claude and codex ask the scripted model for
// structured output (Claude Code's StructuredOutput tool, codex's strict json_schema text format)
// against the schema generated from libs/schemas; each worker also writes a prose result that
// contradicts its object. The wrapper writes the result from the object and records it; the
// collectors (collect-results, collect-verdicts) read the object's votes — the prose is never believed.
const require = createRequire(import.meta.url);
const TEAM_BIN = join(dirname(require.resolve('okstra-team/package.json')), 'dist', 'bin.js');
const CONV_BIN = join(dirname(require.resolve('okstra-convergence/package.json')), 'dist', 'bin.js');
const PLAN_BIN = join(dirname(require.resolve('okstra-plan-items/package.json')), 'dist', 'bin.js');
const SAMPLE = fileURLToPath(new URL('../../../examples/sample-project', import.meta.url));
const socket = privateSocket();
const base = mkdtempSync(join(tmpdir(), 'okstra-schema-votes-'));
afterAll(() => {
  killServer(socket);
  removeProjects();
  rmSync(base, { recursive: true, force: true });
});

const root = join(base, 'project');
const TASK = '.okstra/tasks/payments/refund-timeout/runs';
const EA = { run: `${TASK}/error-analysis`, s: 'error-analysis-001' };
const IP = { run: `${TASK}/implementation-planning`, s: 'implementation-planning-001' };
const abs = (p: string) => join(root, p);
const WORKERS = ['claude', 'codex'] as const;
type Worker = (typeof WORKERS)[number];
const MODEL = { claude: 'sonnet', codex: CODEX_MODEL };
const GAPS = ['C-001', 'C-002', 'C-003'];

/** Each dispatch's marker line (its prompt's first line) and where the worker's result goes. */
const rounds = {
  reverify: {
    marker: (w: Worker) => `Convergence re-verification, round 1: ${w}`,
    result: (w: Worker) => abs(`${EA.run}/worker-results/${w}-reverify-r1-${EA.s}.md`),
  },
  'gap-vote': { marker: (w: Worker) => `Gap vote: ${w}`, result: (w: Worker) => abs(`${EA.run}/worker-results/${w}-gap-vote-${EA.s}.md`) },
  'plan-verify': { marker: (w: Worker) => `Plan verify: ${w}`, result: (w: Worker) => abs(`${IP.run}/worker-results/${w}-plan-verify-${IP.s}.md`) },
} as const;

/** What each worker answers: the object (kept) and a prose result that says the opposite (never believed). */
function answers(kind: AnswerKind, w: Worker, ids: readonly string[]): { object: unknown; prose: string } {
  if (kind === 'plan-verify')
    return {
      object: { votes: ids.map((id) => ({ id, verdict: 'AGREE', breakageKind: null, fixability: null, basis: `${w} checked ${id} against the repository.` })) },
      prose: ids.map((id) => `### ${id}\n**Verdict**: DISAGREE (a)\n**Fixability**: replan\n**Basis**: ${w} changed its mind.\n`).join('\n'),
    };
  return {
    object: { votes: ids.map((id) => ({ id, verdict: 'SURVIVES', basis: `${w} re-read the code cited for ${id}.` })) },
    prose: `${ids.map((id) => `### ${id}\n**Verdict**: REFUTED\n**Basis**: ${w} changed its mind.\n`).join('\n')}\nOverall: every one is REFUTED.\n`,
  };
}

/** Which round, worker and batch a model request belongs to, read from its prompt. */
function route(r: RecordedRequest): { kind: AnswerKind; w: Worker; ids: string[] } | null {
  for (const [kind, round] of Object.entries(rounds) as Array<[AnswerKind, (typeof rounds)[AnswerKind]]>)
    for (const w of WORKERS)
      if (r.text.includes(round.marker(w)))
        return { kind, w, ids: /Batch: ((?:[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+(?:, )?)+)/.exec(r.text)?.[1]?.split(', ') ?? [] };
  return null;
}

describe('schema-bound votes with the real claude and codex CLIs (issue #37 item 1)', () => {
  it('every reverify, gap-vote and plan-verify answer is read from its object; the prose that contradicts it is not believed', async () => {
    const asked: Array<{ kind: AnswerKind; w: Worker; mechanism: string; schema: unknown }> = [];
    const api = await startScriptedModel((results, request) => {
      const at = route(request);
      if (!at) return { text: 'ok' };
      const mechanism = structuredOutputOf(request);
      if (mechanism) asked.push({ kind: at.kind, w: at.w, ...mechanism });
      const { object, prose } = answers(at.kind, at.w, at.ids);
      const steps: Step[] = [writeFileStep(at.w, rounds[at.kind].result(at.w), prose), structuredAnswerStep(request, object)];
      return steps[Math.min(results.length, steps.length - 1)]!;
    });
    try {
      cpSync(SAMPLE, root, { recursive: true });
      // Both runs led externally into tmux panes, their workers on the real CLIs' model names.
      for (const r of [EA, IP]) {
        const path = abs(`${r.run}/manifests/run-manifest-${r.s}.json`);
        const manifest = JSON.parse(readFileSync(path, 'utf8'));
        Object.assign(manifest, { leadRuntime: 'external', hostRuntime: 'external', terminalBackend: 'tmux-pane' });
        for (const a of manifest.workerAssignments) a.runner = 'cli-wrapper';
        writeFileSync(path, JSON.stringify(manifest, null, 2));
      }
      const home = makeHome();
      const env = await scriptedWorkerEnv(home, api.url, socket, 250);
      const node = (bin: string, args: string[]) => runNode([bin, ...args], { env, cwd: root });
      const st = (r: typeof EA, name: string) => abs(`${r.run}/state/${name}`);
      const rel = (p: string) => p.slice(root.length + 1);
      /** Dispatch one round's jobs file for both workers, await it; @returns await's `--dispatch` flags. */
      const dispatch = async (r: typeof EA, kind: AnswerKind, dispatchKind: string, role: string, prompt: (w: Worker) => string): Promise<string[]> => {
        const jobs = WORKERS.map((w) => ({
          workerId: w,
          provider: w,
          role,
          modelExecutionValue: MODEL[w],
          promptPath: prompt(w),
          resultPath: rel(rounds[kind].result(w)),
          workerResultPath: rel(rounds[kind].result(w)),
          completionPaths: [rel(rounds[kind].result(w))],
        }));
        const jobsFile = st(r, `${dispatchKind}-schema-jobs-${r.s}.json`);
        writeFileSync(jobsFile, JSON.stringify({ schemaVersion: '1.0', dispatchKind, jobs }, null, 2));
        const team = (args: string[]) =>
          node(TEAM_BIN, [...args, '--project-root', root, '--run-manifest', abs(`${r.run}/manifests/run-manifest-${r.s}.json`)]);
        const d = await team(['dispatch', '--jobs-file', jobsFile]);
        expect(d.status, d.stderr).toBe(0);
        const awaited = JSON.parse((await team(['await', '--json', '--dispatch-kind', dispatchKind])).stdout) as { allCompleted: boolean; dispatch: string[] };
        expect(awaited.allCompleted, JSON.stringify(awaited)).toBe(true);
        for (const w of WORKERS) {
          const record = JSON.parse(readFileSync(rounds[kind].result(w).replace(/\.md$/, '.answer.json'), 'utf8'));
          expect(record, `${kind} ${w}`).toMatchObject({ kind, status: 'read', source: w === 'claude' ? 'claude-structured-output' : 'codex-last-message' });
          // The result is the seed Markdown written from the object, not the prose the worker wrote.
          expect(readFileSync(rounds[kind].result(w), 'utf8'), `${kind} ${w}`).not.toContain('changed its mind');
        }
        expect((await team(['teardown'])).status).toBe(0);
        return awaited.dispatch.flatMap((x) => ['--dispatch', x]);
      };

      // Reverify round 1 of the error-analysis run.
      const work = st(EA, `convergence-work-${EA.s}.json`);
      const plan = st(EA, `convergence-plan-r1-${EA.s}.json`);
      const seeded = await node(CONV_BIN, [
        'seed',
        '--groups',
        st(EA, `convergence-groups-${EA.s}.json`),
        '--work-state',
        work,
        '--final-state',
        st(EA, `convergence-final-${EA.s}.json`),
        '--migration-dir',
        st(EA, 'mig'),
      ]);
      expect(seeded.status, seeded.stderr).toBe(0);
      expect((await node(CONV_BIN, ['plan-round', '--work-state', work, '--plan', plan])).status).toBe(0);
      expect((await node(CONV_BIN, ['render-prompts', '--plan', plan])).status).toBe(0);
      const reverify = await dispatch(EA, 'reverify', 'reverify-r1', 'worker-reverify-r1', (w) => `${EA.run}/prompts/${w}-prompt-reverify-r1-${EA.s}.md`);
      const results = st(EA, `convergence-results-r1-${EA.s}.json`);
      const collected = await node(CONV_BIN, [
        'collect-results',
        '--plan',
        plan,
        ...WORKERS.flatMap((w) => ['--result', `${w}=${rounds.reverify.result(w)}`]),
        ...reverify,
        '--output',
        results,
      ]);
      expect(collected.status, collected.stderr).toBe(0);
      const votes = (JSON.parse(readFileSync(results, 'utf8')) as { workers: Array<{ verdicts: Array<{ sourceVerdict: string }> }> }).workers.flatMap(
        (w) => w.verdicts,
      );
      expect(votes.length).toBeGreaterThan(0);
      expect(new Set(votes.map((v) => v.sourceVerdict))).toEqual(new Set(['SURVIVES']));

      // The analysers' vote on the critic's gaps.
      for (const w of WORKERS)
        writeFileSync(abs(`${EA.run}/prompts/${w}-prompt-gap-vote-${EA.s}.md`), `${rounds['gap-vote'].marker(w)}\n\nBatch: ${GAPS.join(', ')}\n`);
      const gapVote = await dispatch(EA, 'gap-vote', 'gap-vote', 'analyser', (w) => `${EA.run}/prompts/${w}-prompt-gap-vote-${EA.s}.md`);
      // (collect-critic-gaps reads these records as collect-results does — libs/convergence readWorkerVotes —
      // but only once the main queue is terminal, which this one-round run is not.)
      expect(gapVote).toHaveLength(WORKERS.length * 2);

      // Plan-body verification of the implementation-planning run.
      const items = (JSON.parse(readFileSync(st(IP, `plan-items-${IP.s}.json`), 'utf8')) as { items: Array<{ id: string }> }).items.map((i) => i.id);
      for (const w of WORKERS)
        writeFileSync(abs(`${IP.run}/prompts/${w}-prompt-plan-verify-${IP.s}.md`), `${rounds['plan-verify'].marker(w)}\n\nBatch: ${items.join(', ')}\n`);
      await dispatch(IP, 'plan-verify', 'plan-verify', 'Plan verifier', (w) => `${IP.run}/prompts/${w}-prompt-plan-verify-${IP.s}.md`);
      const verdicts = st(IP, `schema-plan-verdicts-${IP.s}.json`);
      const planRead = await node(PLAN_BIN, [
        'collect-verdicts',
        ...WORKERS.flatMap((w) => ['--result', `${w}=${rounds['plan-verify'].result(w)}`]),
        '--items',
        st(IP, `plan-items-${IP.s}.json`),
        '--output',
        verdicts,
      ]);
      expect(planRead.status, planRead.stderr).toBe(0);
      const planVotes = (JSON.parse(readFileSync(verdicts, 'utf8')) as { items: Array<{ verdicts: Array<{ verdict: string }> }> }).items.flatMap(
        (i) => i.verdicts,
      );
      expect(planVotes).toHaveLength(items.length * WORKERS.length);
      expect(new Set(planVotes.map((v) => v.verdict))).toEqual(new Set(['AGREE']));

      // Each launch asked its model through its own API's mechanism, with the schema generated from libs/schemas.
      for (const kind of ['reverify', 'gap-vote', 'plan-verify'] as const)
        for (const w of WORKERS) {
          const mine = asked.filter((a) => a.kind === kind && a.w === w);
          expect(mine.length, `${kind} ${w}`).toBeGreaterThan(0);
          for (const a of mine) {
            expect(a.mechanism).toBe(w === 'claude' ? 'anthropic-tool' : 'openai-json-schema');
            expect(a.schema).toEqual(answerJsonSchema(kind));
          }
        }
    } finally {
      await api.close();
    }
  }, 180_000);
});
