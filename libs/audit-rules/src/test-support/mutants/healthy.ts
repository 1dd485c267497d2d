// The healthy runs the mutation generator starts from (issue #24 item 3): the
// sample's two runs (examples/sample-project), the fixture's three clean runs,
// and legal shapes derived from them — a failed run that logged its failure,
// an aborted run, a running run, a multi-stage implementation run, a
// re-dispatched worker, a degraded dispatch, a cmux run. Each is one task;
// `main` is the run a mutation edits. Not part of the build.
import { join } from 'node:path';
import { applyRound, collectRoundResults, createWorkingState, exampleGroups, finalizeState, planRound } from '@okstra/convergence';
import { EA, IMPL, PLAN, TASK_KEY, TASK_ROOT_REL, makeCleanProject, validFinalState } from '../fixtures.js';
import { KEY, ROOT, RunModel, readTask } from './model.js';

/** A healthy run: an id, tags the mutation classes select on, and a builder. */
export interface HealthyRun {
  id: string;
  /** What the run has: `completed`, `ended`, `running`, `convergence`, `planning`, `stage`, `cli-wrapper`, `writer`, `dispatches`, … */
  tags: ReadonlySet<string>;
  build(): RunModel;
}

const SAMPLE_TASK = join(import.meta.dirname, '..', '..', '..', '..', '..', 'examples', 'sample-project', '.okstra', 'tasks', 'payments', 'refund-timeout');
const SAMPLE_KEY = 'sample:payments:refund-timeout';
const SAMPLE_ROOT = '.okstra/tasks/payments/refund-timeout';

let fixtureFiles: Map<string, string> | null = null;
let sampleFiles: Map<string, string> | null = null;

/** The fixture's clean task (EA, IMPL stage-1, PLAN), read once, with a final convergence state added to EA. */
function fixture(): Map<string, string> {
  if (fixtureFiles) return fixtureFiles;
  const p = makeCleanProject();
  const s = 'error-analysis-001';
  const final = validFinalState() as Record<string, unknown>;
  p.write(`${EA.dir}/state/convergence-groups-${s}.json`, { schemaVersion: '1.0', taskKey: TASK_KEY });
  p.write(EA.final, final);
  // The canonical lead prompt and its byte-identical compatibility alias (seed 000 architecture).
  p.write(`${EA.dir}/prompts/lead-execution-prompt-${s}.md`, '# Lead execution prompt\n\nRun the error analysis.\n');
  p.write(`${EA.dir}/prompts/claude-execution-prompt-${s}.md`, '# Lead execution prompt\n\nRun the error analysis.\n');
  fixtureFiles = readTask(join(p.root, TASK_ROOT_REL), TASK_KEY, TASK_ROOT_REL);
  p.cleanup();
  return fixtureFiles;
}

function sample(): Map<string, string> {
  sampleFiles ??= readTask(SAMPLE_TASK, SAMPLE_KEY, SAMPLE_ROOT);
  return sampleFiles;
}

const rel = (projectRel: string) => projectRel.slice(TASK_ROOT_REL.length + 1);
const only = (files: Map<string, string>, prefix: string) => new Map([...files].filter(([k]) => k.startsWith(prefix) || k === 'task-manifest.json'));

const ea = () => new RunModel({ dir: rel(EA.dir), taskType: 'error-analysis', seq: '001' }, only(fixture(), 'runs/error-analysis/'));
const impl = () => new RunModel({ dir: rel(IMPL.dir), taskType: 'implementation', seq: '001' }, only(fixture(), 'runs/implementation/'));
const plan = () => new RunModel({ dir: rel(PLAN.dir), taskType: 'implementation-planning', seq: '001' }, only(fixture(), 'runs/implementation-planning/'));

/** A wrapper status sidecar as okstra-team exec writes it. */
export function wrapperStatus(workerId: string, status: 'completed' | 'error', startedAt: string, endedAt: string, dispatchKind = 'initial'): string {
  return (
    JSON.stringify(
      {
        schemaVersion: '1.0',
        workerId,
        dispatchKind,
        status,
        exitCode: status === 'completed' ? 0 : 1,
        signal: null,
        startedAt,
        endedAt,
        durationMs: Date.parse(endedAt) - Date.parse(startedAt),
        reason: status === 'completed' ? null : 'provider exited 1',
      },
      null,
      2,
    ) + '\n'
  );
}

/** End the EA run as `status` with a logged failure: no report, the writer timed out. */
function endedWithLoggedFailure(status: 'failed' | 'aborted'): RunModel {
  const r = ea();
  r.editManifest((m) => {
    m.status = status;
  });
  r.editRow(
    (w) => w.workerId === 'report-writer',
    (w) => {
      if (status === 'failed') Object.assign(w, { status: 'timeout', reason: 'no data.json after the retry', attempt: 2, resultPath: null });
      else {
        for (const k of Object.keys(w)) if (!['workerId', 'provider', 'role'].includes(k)) delete w[k];
        w.status = 'pending';
      }
    },
  );
  r.del(r.p.report);
  r.del(r.p.data);
  r.set(
    'errors-2026-11-29.jsonl',
    JSON.stringify({ taskType: 'error-analysis', seq: '001', error: `run ${status}: the report writer gave no data.json` }) + '\n',
  );
  return r;
}

/** The EA run with one saved convergence round: groups, round-1 plan, the reverify responses, results and the final state, built by libs/convergence. */
function withRound(): RunModel {
  const r = ea();
  // No task key: the seed digest the plan carries must not depend on the placeholder the writer replaces.
  const { taskKey: _unused, ...groups } = exampleGroups();
  const s0 = createWorkingState(groups);
  const plan = planRound(s0);
  const responses = plan.batches.map((b) => ({
    workerId: b.workerId,
    file: r.p.reverify(b.workerId, 1),
    text: `## Re-verification — round 1\n\n${b.findingIds.map((id, i) => `### ${id}\n\n**Verdict**: ${i === 0 ? 'SURVIVES' : 'REFUTED'}\n**Basis**: re-read \`src/payments/refunds/gateway-client.ts:58\`.\n`).join('\n')}`,
  }));
  const dispatches = plan.batches.map((b) => ({ workerId: b.workerId, status: 'completed' as const, durationMs: 60_000 }));
  const results = collectRoundResults({ plan, planFile: r.p.roundPlan(1), mode: plan.mode, responses, dispatches });
  for (const w of results.workers) if (w.resultPath) w.resultPath = r.p.recorded(w.resultPath);
  for (const x of responses) r.set(x.file, x.text);
  r.setJson(r.p.groups, groups);
  r.setJson(r.p.roundPlan(1), plan);
  r.setJson(r.p.roundResults(1), results);
  r.setJson(r.p.final, finalizeState(applyRound(s0, plan, results)));
  return r;
}

/** Every healthy run. */
export const HEALTHY: readonly HealthyRun[] = [
  {
    id: 'sample-ea',
    tags: new Set(['running', 'convergence', 'cli-wrapper', 'writer-roster', 'sample']),
    build: () => new RunModel({ dir: 'runs/error-analysis', taskType: 'error-analysis', seq: '001' }, only(sample(), 'runs/error-analysis/')),
  },
  {
    id: 'sample-plan',
    tags: new Set(['completed', 'ended', 'planning', 'writer', 'sample']),
    build: () =>
      new RunModel({ dir: 'runs/implementation-planning', taskType: 'implementation-planning', seq: '001' }, only(sample(), 'runs/implementation-planning/')),
  },
  { id: 'ea', tags: new Set(['completed', 'ended', 'convergence', 'writer', 'dispatches', 'heartbeat']), build: ea },
  { id: 'ea-round', tags: new Set(['completed', 'ended', 'convergence', 'writer', 'dispatches', 'heartbeat', 'rounds']), build: withRound },
  { id: 'impl', tags: new Set(['completed', 'ended', 'stage', 'lead-report']), build: impl },
  { id: 'plan', tags: new Set(['completed', 'ended', 'planning']), build: plan },
  { id: 'failed-logged', tags: new Set(['ended', 'failed', 'convergence', 'dispatches', 'heartbeat']), build: () => endedWithLoggedFailure('failed') },
  { id: 'aborted', tags: new Set(['ended', 'aborted', 'convergence', 'dispatches', 'heartbeat']), build: () => endedWithLoggedFailure('aborted') },
  {
    id: 'running',
    tags: new Set(['running', 'dispatches', 'heartbeat', 'convergence']),
    build: () => {
      const r = ea();
      r.editManifest((m) => {
        m.status = 'running';
        m.endedAt = null;
      });
      r.editRow(
        (w) => w.workerId === 'report-writer',
        (w) => {
          w.status = 'in-progress';
          delete w.endedAt;
        },
      );
      r.del(r.p.report);
      r.del(r.p.data);
      r.del(r.p.final);
      return r;
    },
  },
  {
    id: 'multi-stage',
    tags: new Set(['completed', 'ended', 'stage', 'lead-report']),
    build: () => {
      const one = impl();
      const files = new Map(one.files);
      for (const [k, v] of one.files) {
        if (!k.startsWith('runs/implementation/stage-1/')) continue;
        files.set(k.replace('stage-1/', 'stage-2/'), v.replaceAll('stage-1/', 'stage-2/').replace('"stage": 1', '"stage": 2'));
      }
      files.set('runs/implementation/carry/stage-2.json', JSON.stringify({ stage: 2, evidence: [] }) + '\n');
      const r = new RunModel({ dir: 'runs/implementation/stage-2', taskType: 'implementation', seq: '001' }, files);
      r.editManifest((m) => {
        m.startedAt = '2026-11-29T12:00:00Z';
        m.endedAt = '2026-11-29T13:00:00Z';
      });
      r.editRows((rows) => {
        rows[0].startedAt = '2026-11-29T12:30:00Z';
        rows[0].endedAt = '2026-11-29T12:50:00Z';
        rows[1].endedAt = '2026-11-29T12:01:00Z';
      });
      return r;
    },
  },
  {
    id: 'redispatch',
    tags: new Set(['completed', 'ended', 'convergence', 'writer', 'dispatches', 'heartbeat', 'cli-wrapper', 'retried']),
    build: () => {
      const r = ea();
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) =>
          Object.assign(w, {
            attempt: 2,
            failures: 1,
            dispatchKind: 'initial-retry',
            startedAt: '2026-11-29T08:12:00Z',
            promptPath: r.p.recorded(r.p.prompt('codex')),
          }),
      );
      r.editManifest((m) => {
        m.workerDispatches.push({
          dispatchKind: 'initial-retry',
          workerId: 'codex',
          backend: 'tmux-pane',
          paneId: '%3',
          startedAt: '2026-11-29T08:12:00Z',
          tornDownAt: '2026-11-29T08:58:00Z',
        });
      });
      // The first dispatch's wrapper status, moved aside by the retry, and the retry's own.
      r.set(r.p.status('codex'), wrapperStatus('codex', 'completed', '2026-11-29T08:12:05Z', '2026-11-29T08:24:50Z', 'initial-retry'));
      r.set(r.p.log('codex'), 'codex: started\ncodex: done\n');
      return r;
    },
  },
  {
    id: 'degraded',
    tags: new Set(['completed', 'ended', 'convergence', 'writer', 'dispatches', 'heartbeat', 'cli-wrapper']),
    build: () => {
      const r = ea();
      r.editManifest((m) => {
        m.workerDispatches[0] = {
          ...m.workerDispatches[0],
          tornDownAt: null,
          backend: 'subprocess',
          paneId: null,
          degradedFrom: 'tmux-pane',
          reason: 'tmux split-window failed: no space for new pane',
        };
      });
      r.set(r.p.status('codex'), wrapperStatus('codex', 'completed', '2026-11-29T08:01:03Z', '2026-11-29T08:24:40Z'));
      r.set(r.p.log('codex'), 'codex: started\ncodex: done\n');
      return r;
    },
  },
  {
    id: 'cmux',
    tags: new Set(['completed', 'ended', 'convergence', 'writer', 'dispatches', 'heartbeat', 'cmux']),
    build: () => {
      const r = ea();
      r.editManifest((m) => {
        m.terminalBackend = 'cmux-pane';
        m.workerDispatches = [
          {
            dispatchKind: 'initial',
            workerId: 'claude',
            backend: 'cmux-pane',
            paneId: 'pane:7',
            surfaceId: 'surface:7',
            startedAt: '2026-11-29T08:01:00Z',
            tornDownAt: '2026-11-29T08:59:00Z',
          },
          {
            dispatchKind: 'initial',
            workerId: 'codex',
            backend: 'cmux-pane',
            paneId: 'pane:8',
            surfaceId: 'surface:8',
            startedAt: '2026-11-29T08:01:00Z',
            tornDownAt: '2026-11-29T08:59:00Z',
          },
        ];
      });
      return r;
    },
  },
];

/**
 * A run that records every fact the table names at least twice, for the edge mutants (issue #38): the saved
 * round of `ea-round`, a report-writer and a reverify jobs file, dispatch records naming their prompts, codex's
 * wrapper log and status sidecar, and a report and data.json citing the final state's findings.
 */
function recordsEveryFact(): RunModel {
  const r = withRound();
  const final = r.json(r.p.final);
  const agreed = final.findings.filter((f: any) => f.status === 'agreed').map((f: any) => f.id);
  const ids = final.findings.map((f: any) => f.id) as string[];
  r.set(r.p.report, r.text(r.p.report) + `\n## Findings\n\n${ids.map((id) => `- ${id}`).join('\n')}\n`);
  r.edit(r.p.data, (d: any) => {
    d.findings = ids.map((id) => ({ id, agreed: agreed.includes(id) }));
    d.frontmatter = { approved: false, reportAuthor: 'report-writer', generatedAt: '2026-11-29T08:55:00Z' };
  });
  r.editManifest((m) => {
    for (const d of m.workerDispatches) d.promptPath = r.p.recorded(r.p.prompt(d.workerId));
    m.workerAssignments.push({
      workerId: 'report-writer',
      role: 'report-writer',
      provider: 'claude',
      model: 'claude-model',
      executionValue: 'claude-model',
      runner: 'cli-wrapper',
    });
  });
  r.editRows((rows) => {
    for (const w of rows) w.model = `${w.provider}-model`;
  });
  const job = (w: string, provider: string, result: string, completion: string[], role: string) => ({
    workerId: w,
    provider,
    role,
    modelExecutionValue: `${provider}-model`,
    promptPath: r.p.recorded(r.p.prompt(w)),
    resultPath: r.p.recorded(result),
    workerResultPath: r.p.recorded(r.p.result(w)),
    completionPaths: completion.map((c) => r.p.recorded(c)),
  });
  r.setJson(r.p.rwJobs, {
    schemaVersion: '1.0',
    dispatchKind: 'report-writer',
    jobs: [job('report-writer', 'claude', r.p.data, [r.p.data, r.p.sidecar('report-writer')], 'report-writer')],
  });
  const s = `${r.main.taskType}-${r.main.seq}`;
  r.setJson(`${r.main.dir}/state/reverify-jobs-r1-${s}.json`, {
    schemaVersion: '1.0',
    dispatchKind: 'reverify-r1',
    jobs: ['claude', 'codex'].map((w) => ({
      ...job(w, w, r.p.reverify(w, 1), [r.p.reverify(w, 1)], 'worker-reverify-r1'),
      workerResultPath: r.p.recorded(r.p.reverify(w, 1)),
    })),
  });
  // The provider's own end-of-turn signal, as okstra-team exec records it (docs/team.md "End of turn").
  const status = JSON.parse(wrapperStatus('codex', 'completed', '2026-11-29T08:01:03Z', '2026-11-29T08:24:40Z'));
  status.endOfTurn = { source: 'codex-jsonl', signal: 'end-turn', event: 'turn.completed', stopReason: null, errors: [] };
  r.setJson(r.p.status('codex'), status);
  r.set(r.p.log('codex'), 'codex: started\ncodex: done\n');
  return r;
}

/** The runs the edge mutants start from: every healthy run, and one that records every fact twice. */
export const FACT_BASES: readonly HealthyRun[] = [
  ...HEALTHY,
  {
    id: 'every-fact',
    tags: new Set(['completed', 'ended', 'convergence', 'writer', 'dispatches', 'heartbeat', 'rounds', 'cli-wrapper']),
    build: recordsEveryFact,
  },
];

export { KEY, ROOT };
