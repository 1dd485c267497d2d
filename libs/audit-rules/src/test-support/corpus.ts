// The planted corpus (issue 15): one project holding one task per planted
// wrong run (a catalogue row or a variant the issue names) and per healthy
// twin, so run-audit's catch rate and false alarms are measured on one tree.
// Every task is a copy of one clean run of fixtures.ts, then broken (or kept
// healthy) by exactly one edit. Not part of the build.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EA, IMPL, PLAN, TASK_KEY, TASK_ROOT_REL, heartbeats, makeCleanProject, makeProject, validFinalState, type Project } from './fixtures.js';

/** Which clean run a case starts from. */
export type CorpusRun = 'ea' | 'impl' | 'plan';

/** Writers over one case's task, taking the clean fixture's paths (EA.*, IMPL.*, PLAN.*) and mapping them into the case. */
export interface CaseWriter {
  taskRoot: string;
  taskKey: string;
  write(rel: string, content: string | object): void;
  read(rel: string): string;
  edit<T = any>(rel: string, fn: (value: T) => void): void;
  remove(rel: string): void;
}

/** One corpus entry: a planted wrong run (`expect` = the invariant that must catch it) or a healthy twin (`expect` null). */
export interface CorpusCase {
  id: string;
  run: CorpusRun;
  expect: string | null;
  plant?: (c: CaseWriter) => void;
  /** The run directory (relative to the task root) the planted violation belongs to, when not the clean run's own. */
  runDir?: string;
  /** Other run directories of the case's task (relative to the task root) that must stay clean. */
  alsoHealthy?: string[];
}

const RUN_DIR: Record<CorpusRun, string> = {
  ea: 'runs/error-analysis',
  impl: 'runs/implementation/stage-1',
  plan: 'runs/implementation-planning',
};

const verdict = (workerId: string, v: string, extra: object = {}) => ({
  workerId,
  verdict: v,
  breakageKind: null,
  fixability: null,
  basis: 'read it',
  ...extra,
});
const blockingDisagree = verdict('codex', 'DISAGREE', { breakageKind: 'b', fixability: 'replan' });

/** Make the planning run's verification blocking (`blocked-by-disagreement` on P-Step-1-1). */
function blockPlan(c: CaseWriter): void {
  c.edit(PLAN.data, (d) => {
    const v = d.implementationPlanning.planBodyVerification;
    v.planItems[1].verdicts[1] = blockingDisagree;
    v.result = 'blocked-by-disagreement';
  });
}

/** Make the planning run's verification `aborted-non-result` (no verdicts came back). */
function abortPlan(c: CaseWriter): void {
  c.edit(PLAN.data, (d) => {
    const v = d.implementationPlanning.planBodyVerification;
    for (const item of v.planItems) item.verdicts = [];
    v.contributors = [];
    v.result = 'aborted-non-result';
  });
}

const clarifications = (rows: string[]) =>
  `\n## 1. Clarification Items\n\n| ID | Kind | Blocks | Status | Statement |\n|---|---|---|---|---|\n${rows.join('\n')}\n\n## 2. Findings\n`;

const reportWith = (frontmatter: string, body = '') => `---\n${frontmatter}\n---\n# Plan\n${body}`;

/** Cite in claude's result (its prompt requires the ledger) and give each of `rowed` a ledger row. */
function cite(c: CaseWriter, cited: string[], rowed: string[]): void {
  c.write(EA.result('claude'), `# Findings\n\n### F-1\n${cited.map((x) => `See \`${x}\`.`).join('\n')}\n`);
  const rows = rowed.map((x) => `| \`${x}\` | read |`).join('\n');
  c.write(EA.sidecar('claude'), `# Audit\n\n${heartbeats('08:01', '08:20')}\n\n## Evidence read\n\n| citation | why |\n|---|---|\n${rows}\n`);
}

const writerRow = (over: object) => ({ workerId: 'report-writer', provider: 'claude', role: 'report-writer', attempt: 1, ...over });

/** Put the report writer into the error-analysis run's roster (a selected worker). */
function rosterWriter(c: CaseWriter): void {
  c.edit(EA.manifest, (m) => {
    m.workerAssignments.push({ workerId: 'report-writer', role: 'report-writer', provider: 'claude', model: 'm', executionValue: 'm', runner: 'cli-wrapper' });
  });
}

const implPrompt = `${IMPL.dir}/prompts/report-writer-prompt-implementation-001.md`;

/** Every planted wrong run (one per catalogue row and issue-15 variant) and every healthy twin. */
export const CORPUS: readonly CorpusCase[] = [
  // 0 artifact-invalid
  { id: 'p-manifest-json', run: 'ea', expect: 'artifact-invalid', plant: (c) => c.write(EA.manifest, '{"schemaVersion": "1.0", "status": ') },
  { id: 'p-team-state-schema', run: 'ea', expect: 'artifact-invalid', plant: (c) => c.edit(EA.teamState, (s) => void (s.workers[0].status = 'finished')) },
  { id: 'p-team-state-absent', run: 'ea', expect: 'artifact-invalid', plant: (c) => c.remove(EA.teamState) },
  { id: 'p-manifest-seq', run: 'ea', expect: 'artifact-invalid', plant: (c) => c.edit(EA.manifest, (m) => void (m.seq = '002')) },
  // 1 report-missing
  { id: 'p-report-md', run: 'ea', expect: 'report-missing', plant: (c) => c.remove(EA.report) },
  { id: 'p-report-data', run: 'ea', expect: 'report-missing', plant: (c) => c.remove(EA.data) },
  // 2 worker-not-terminal
  {
    id: 'p-row-in-progress',
    run: 'ea',
    expect: 'worker-not-terminal',
    plant: (c) =>
      c.edit(EA.teamState, (s) => {
        s.workers[1].status = 'in-progress';
        delete s.workers[1].endedAt;
      }),
  },
  {
    id: 'p-row-pending-aborted',
    run: 'ea',
    expect: 'worker-not-terminal',
    plant: (c) => {
      c.edit(EA.manifest, (m) => void (m.status = 'aborted'));
      c.edit(EA.teamState, (s) => void (s.workers[2] = writerRow({ status: 'pending' })));
    },
  },
  // 3 worker-times
  {
    id: 'p-row-ended-before',
    run: 'ea',
    expect: 'worker-times',
    plant: (c) => c.edit(EA.teamState, (s) => void (s.workers[0].endedAt = '2026-11-29T08:00:00Z')),
  },
  { id: 'p-row-no-ended', run: 'ea', expect: 'worker-times', plant: (c) => c.edit(EA.teamState, (s) => void delete s.workers[1].endedAt) },
  { id: 'p-row-no-started', run: 'ea', expect: 'worker-times', plant: (c) => c.edit(EA.teamState, (s) => void delete s.workers[1].startedAt) },
  // 4 reason-missing
  {
    id: 'p-error-blank-reason',
    run: 'ea',
    expect: 'reason-missing',
    plant: (c) =>
      c.edit(EA.teamState, (s) => {
        s.workers[1].status = 'error';
        s.workers[1].reason = '  ';
      }),
  },
  { id: 'p-not-run-no-reason', run: 'impl', expect: 'reason-missing', plant: (c) => c.edit(IMPL.teamState, (s) => void (s.workers[1].reason = null)) },
  // 5, 6
  { id: 'p-prompt-missing', run: 'ea', expect: 'prompt-missing', plant: (c) => c.remove(EA.prompt('codex')) },
  { id: 'p-result-missing', run: 'ea', expect: 'result-missing', plant: (c) => c.remove(EA.result('codex')) },
  // 7 lead-report-unjustified
  { id: 'p-lead-writer-completed', run: 'ea', expect: 'lead-report-unjustified', plant: (c) => c.edit(EA.manifest, (m) => void (m.reportAuthor = 'lead')) },
  { id: 'p-lead-no-writer-row', run: 'impl', expect: 'lead-report-unjustified', plant: (c) => c.edit(IMPL.teamState, (s) => void s.workers.shift()) },
  // 8 convergence-final
  { id: 'p-conv-no-final', run: 'ea', expect: 'convergence-final', plant: (c) => c.write(EA.groups, { schemaVersion: '1.0', groups: [] }) },
  {
    id: 'p-conv-final-invalid',
    run: 'ea',
    expect: 'convergence-final',
    plant: (c) => {
      c.write(EA.groups, { schemaVersion: '1.0' });
      const state = validFinalState() as { counts: { agreed: number } };
      state.counts.agreed += 1;
      c.write(EA.final, state);
    },
  },
  {
    id: 'p-conv-never-finalized',
    run: 'ea',
    expect: 'convergence-final',
    plant: (c) => {
      c.edit(EA.manifest, (m) => void (m.status = 'failed'));
      c.remove(EA.report);
      c.remove(EA.data);
      c.write(EA.work, { schemaVersion: '1.0' });
    },
  },
  // 9 plan-verification
  {
    id: 'p-plan-result-mismatch',
    run: 'plan',
    expect: 'plan-verification',
    plant: (c) => c.edit(PLAN.data, (d) => void (d.implementationPlanning.planBodyVerification.result = 'passed')),
  },
  {
    id: 'p-approved-while-blocking',
    run: 'plan',
    expect: 'plan-verification',
    plant: (c) => {
      blockPlan(c);
      c.write(PLAN.report, reportWith('approved: true', clarifications(['| C-001 | decision | approval | open | P-Step-1-1 must be re-planned |'])));
    },
  },
  {
    id: 'p-approved-open-approval-row',
    run: 'plan',
    expect: 'plan-verification',
    plant: (c) => c.write(PLAN.report, reportWith('approved: true', clarifications(['| C-002 | decision | approval | open | which queue? |']))),
  },
  {
    id: 'p-approved-json-key',
    run: 'plan',
    expect: 'plan-verification',
    plant: (c) => {
      blockPlan(c);
      c.write(PLAN.report, reportWith('"approved": true', clarifications(['| C-001 | decision | approval | open | P-Step-1-1 blocks |'])));
    },
  },
  {
    id: 'p-approved-spaced-key',
    run: 'plan',
    expect: 'plan-verification',
    plant: (c) => {
      blockPlan(c);
      c.write(PLAN.report, reportWith('approved : true', clarifications(['| C-001 | decision | approval | open | P-Step-1-1 blocks |'])));
    },
  },
  // 10 heartbeat-cadence
  {
    id: 'p-heartbeat-gap',
    run: 'ea',
    expect: 'heartbeat-cadence',
    plant: (c) =>
      c.write(
        EA.sidecar('claude'),
        `${heartbeats('08:01', '08:05')}\n${heartbeats('08:16', '08:20')}\n\n## Evidence read\n| c |\n|---|\n| \`src/queue.ts:42\` |\n| \`src/refund.ts:10-12\` |\n`,
      ),
  },
  // 11, 12
  { id: 'p-carry-missing', run: 'impl', expect: 'stage-carry-missing', plant: (c) => c.remove(IMPL.carry) },
  {
    id: 'p-degraded-no-reason',
    run: 'ea',
    expect: 'degraded-without-reason',
    plant: (c) => c.edit(EA.manifest, (m) => void delete m.workerDispatches[1].reason),
  },
  // 13 worker-audit
  { id: 'p-reading-confirmation', run: 'ea', expect: 'worker-audit', plant: (c) => c.write(EA.result('codex'), '## 0. Reading Confirmation\nI read it.\n') },
  { id: 'p-sidecar-missing', run: 'ea', expect: 'worker-audit', plant: (c) => c.remove(EA.sidecar('codex')) },
  { id: 'p-ledger-row-missing', run: 'ea', expect: 'worker-audit', plant: (c) => cite(c, ['src/queue.ts:42', 'src/new.ts:7'], ['src/queue.ts:42']) },
  { id: 'p-line-col-citation', run: 'ea', expect: 'worker-audit', plant: (c) => cite(c, ['src/a.ts:9:1'], ['src/a.ts:9']) },
  { id: 'p-makefile-citation', run: 'ea', expect: 'worker-audit', plant: (c) => cite(c, ['Makefile:12'], []) },
  { id: 'p-schema-port-citation', run: 'ea', expect: 'worker-audit', plant: (c) => cite(c, ['schema.sql:5432'], []) },
  // report-writer bypass (seed 002 lead contract)
  {
    id: 'p-writer-never-dispatched',
    run: 'ea',
    expect: 'report-writer-bypass',
    plant: (c) => {
      rosterWriter(c);
      c.edit(EA.manifest, (m) => void (m.reportAuthor = null));
      c.edit(EA.teamState, (s) => void s.workers.pop());
      c.remove(EA.prompt('report-writer'));
    },
  },
  {
    id: 'p-writer-author-not-run',
    run: 'ea',
    expect: 'report-writer-bypass',
    plant: (c) => c.edit(EA.teamState, (s) => void (s.workers[2] = writerRow({ status: 'not-run', reason: 'skipped', endedAt: '2026-11-29T08:55:00Z' }))),
  },
  {
    id: 'p-lead-writer-never-started',
    run: 'impl',
    expect: 'report-writer-bypass',
    plant: (c) => {
      c.edit(
        IMPL.teamState,
        (s) => void (s.workers[0] = writerRow({ status: 'not-run', reason: 'pane could not be created', endedAt: '2026-11-29T10:50:00Z' })),
      );
      c.remove(implPrompt);
    },
  },
  {
    id: 'p-lead-session-resume',
    run: 'impl',
    expect: 'report-writer-bypass',
    plant: (c) =>
      c.edit(IMPL.teamState, (s) => void (s.workers[0] = writerRow({ status: 'not-run', reason: 'Session resume', endedAt: '2026-11-29T10:50:00Z' }))),
  },
  {
    id: 'p-lead-team-not-alive',
    run: 'impl',
    expect: 'report-writer-bypass',
    plant: (c) => c.edit(IMPL.teamState, (s) => void (s.workers[0].reason = 'the team is no longer alive')),
  },
  // selected worker with no team-state row
  { id: 'p-selected-no-row', run: 'ea', expect: 'worker-row-missing', plant: (c) => c.edit(EA.teamState, (s) => void s.workers.splice(1, 1)) },
  { id: 'p-selected-empty-workers', run: 'ea', expect: 'worker-row-missing', plant: (c) => c.edit(EA.teamState, (s) => void (s.workers = [])) },
  // blocking plan verification with no Clarification Items row
  { id: 'p-blocked-no-clarification', run: 'plan', expect: 'clarification-missing', plant: (c) => blockPlan(c) },
  {
    id: 'p-blocked-other-clarification',
    run: 'plan',
    expect: 'clarification-missing',
    plant: (c) => {
      blockPlan(c);
      c.write(PLAN.report, reportWith('approved: false', clarifications(['| C-004 | question | next-phase | open | unrelated naming question |'])));
    },
  },
  { id: 'p-aborted-no-clarification', run: 'plan', expect: 'clarification-missing', plant: (c) => abortPlan(c) },
  // run-level time order
  { id: 'p-run-ended-before-start', run: 'ea', expect: 'run-time-order', plant: (c) => c.edit(EA.manifest, (m) => void (m.endedAt = '2026-11-29T07:00:00Z')) },
  { id: 'p-completed-no-ended', run: 'ea', expect: 'run-time-order', plant: (c) => c.edit(EA.manifest, (m) => void delete m.endedAt) },
  {
    id: 'p-worker-after-run',
    run: 'ea',
    expect: 'run-time-order',
    plant: (c) => c.edit(EA.teamState, (s) => void (s.workers[1].endedAt = '2026-11-29T09:30:00Z')),
  },
  // artifacts of another run
  { id: 'p-team-state-other-seq', run: 'ea', expect: 'foreign-artifact', plant: (c) => c.edit(EA.teamState, (s) => void (s.seq = '002')) },
  { id: 'p-team-state-other-task', run: 'ea', expect: 'foreign-artifact', plant: (c) => c.edit(EA.teamState, (s) => void (s.taskKey = 'demo:other:task')) },
  { id: 'p-team-state-other-type', run: 'ea', expect: 'foreign-artifact', plant: (c) => c.edit(EA.teamState, (s) => void (s.taskType = 'implementation')) },
  {
    id: 'p-final-state-other-type',
    run: 'ea',
    expect: 'foreign-artifact',
    plant: (c) => {
      c.write(EA.groups, { schemaVersion: '1.0' });
      c.write(EA.final, { ...(validFinalState() as object), taskKey: c.taskKey, taskType: 'implementation', seq: '001' });
    },
  },
  {
    id: 'p-final-state-other-seq',
    run: 'ea',
    expect: 'foreign-artifact',
    plant: (c) => {
      c.write(EA.groups, { schemaVersion: '1.0' });
      c.write(EA.final, { ...(validFinalState() as object), taskKey: c.taskKey, taskType: 'error-analysis', seq: '007' });
    },
  },
  // a stage-2 run broken beside a healthy stage-1 run of the same seq
  {
    id: 'p-stage-2-carry',
    run: 'impl',
    expect: 'stage-carry-missing',
    runDir: 'runs/implementation/stage-2',
    alsoHealthy: ['runs/implementation/stage-1'],
    plant: (c) => {
      copyStage(c, 2);
      c.remove(IMPL.carry.replace('stage-1', 'stage-2'));
    },
  },
  // answers that are not answers, skip reasons in other words, Section 0 stubs in other words (held-out set #4)
  {
    id: 'p-result-refusal-ko',
    run: 'ea',
    expect: 'answer-invalid',
    plant: (c) => c.write(EA.result('codex'), '죄송합니다. 요청하신 분석을 완료할 수 없었습니다.\n'),
  },
  { id: 'p-result-copied', run: 'ea', expect: 'answer-invalid', plant: (c) => c.write(EA.result('codex'), c.read(EA.result('claude'))) },
  {
    id: 'p-lead-reason-korean',
    run: 'impl',
    expect: 'report-writer-bypass',
    plant: (c) => c.edit(IMPL.teamState, (s) => void (s.workers[0].reason = '세션 재개 후 팀이 종료됨')),
  },
  {
    id: 'p-section0-none-ko',
    run: 'ea',
    expect: 'report-content',
    plant: (c) => c.write(EA.report, `${c.read(EA.report)}\n## 0. Clarification Response Carried In From Previous Run\n\n없음\n`),
  },

  // healthy twins
  { id: 'h-clean-ea', run: 'ea', expect: null },
  {
    id: 'h-result-could-not-reproduce',
    run: 'ea',
    expect: null,
    plant: (c) => c.write(EA.result('codex'), 'I could not reproduce the timeout with the gateway double; the deadline is never set.\n'),
  },
  {
    id: 'h-section0-one-line-with-id',
    run: 'ea',
    expect: null,
    plant: (c) =>
      c.write(
        EA.report,
        `${c.read(EA.report)}\n## 0. Clarification Response Carried In From Previous Run\n\nNo change to the plan: C-004 answered (client header).\n`,
      ),
  },
  { id: 'h-clean-impl', run: 'impl', expect: null },
  { id: 'h-clean-plan', run: 'plan', expect: null },
  {
    id: 'h-host-port-not-citations',
    run: 'ea',
    expect: null,
    plant: (c) => cite(c, ['db.internal:5432', '127.0.0.1:8080', 'localhost:3000', 'api.example.com:443', '[::1]:8080'], []),
  },
  {
    id: 'h-citations-with-rows',
    run: 'ea',
    expect: null,
    plant: (c) => cite(c, ['schema.sql:5432', 'src/a.ts:9', 'src/a.ts:9:1', 'Makefile:12'], ['schema.sql:5432', 'src/a.ts:9', 'src/a.ts:9:1', 'Makefile:12']),
  },
  { id: 'h-approved-plan', run: 'plan', expect: null, plant: (c) => c.write(PLAN.report, reportWith('title: Plan\napproved: true')) },
  {
    id: 'h-approved-rows-resolved',
    run: 'plan',
    expect: null,
    plant: (c) =>
      c.write(
        PLAN.report,
        reportWith(
          'approved: true',
          clarifications(['| C-002 | decision | approval | resolved | which queue? |', '| C-003 | question | none | open | naming |']),
        ),
      ),
  },
  { id: 'h-quoted-key-false', run: 'plan', expect: null, plant: (c) => c.write(PLAN.report, reportWith('"approved": false')) },
  {
    id: 'h-blocked-with-clarification',
    run: 'plan',
    expect: null,
    plant: (c) => {
      blockPlan(c);
      c.write(PLAN.report, reportWith('approved: false', clarifications(['| C-001 | decision | approval | open | `P-Step-1-1` must be re-planned |'])));
    },
  },
  {
    id: 'h-aborted-with-clarification',
    run: 'plan',
    expect: null,
    plant: (c) => {
      abortPlan(c);
      c.write(
        PLAN.report,
        reportWith('approved: false', clarifications(['| C-001 | decision | approval | open | plan-body verification returned no verdicts |'])),
      );
    },
  },
  {
    id: 'h-failed-logged',
    run: 'ea',
    expect: null,
    plant: (c) => {
      c.edit(EA.manifest, (m) => {
        m.status = 'failed';
        m.reportAuthor = null;
      });
      c.edit(EA.teamState, (s) => void (s.workers[2] = writerRow({ status: 'pending' })));
      c.remove(EA.report);
      c.remove(EA.data);
      c.write(EA.work, { schemaVersion: '1.0' });
      c.write(
        `${TASK_ROOT_REL}/errors-2026-11-29.jsonl`,
        JSON.stringify({ source: 'okstra-convergence', taskType: 'error-analysis', seq: '001', message: 'round 2 failed' }) + '\n',
      );
    },
  },
  {
    id: 'h-aborted-logged',
    run: 'ea',
    expect: null,
    plant: (c) => {
      c.edit(EA.manifest, (m) => {
        m.status = 'aborted';
        m.reportAuthor = null;
      });
      c.write(
        `${TASK_ROOT_REL}/errors-2026-11-29.jsonl`,
        JSON.stringify({ source: 'okstra', kind: 'aborted', taskType: 'error-analysis', seq: '001', message: 'cancelled by the user' }) + '\n',
      );
      c.edit(EA.teamState, (s) => void (s.workers[2] = writerRow({ status: 'pending' })));
      c.remove(EA.result('codex'));
      c.edit(EA.teamState, (s) => void (s.workers[1] = { ...s.workers[1], status: 'not-run', reason: 'cancelled', startedAt: null }));
    },
  },
  {
    id: 'h-lead-fallback-prompt-only',
    run: 'impl',
    expect: null,
    plant: (c) => {
      c.edit(
        IMPL.teamState,
        (s) => void (s.workers[0] = writerRow({ status: 'not-run', reason: 'provider refused the prompt', endedAt: '2026-11-29T10:50:00Z' })),
      );
      c.write(implPrompt.replace(/\.md$/, '.log'), 'wrapper: provider refused\n');
    },
  },
  {
    id: 'h-worker-id-override',
    run: 'ea',
    expect: null,
    plant: (c) => {
      rosterWriter(c);
      c.edit(EA.manifest, (m) => void (m.workerAssignments[0].workerId = 'claude'));
    },
  },
  { id: 'h-staged-runs', run: 'impl', expect: null, alsoHealthy: ['runs/implementation/stage-2'], plant: (c) => copyStage(c, 2) },
  {
    id: 'h-final-state-own-run',
    run: 'ea',
    expect: null,
    plant: (c) => {
      c.write(EA.groups, { schemaVersion: '1.0' });
      c.write(EA.final, { ...(validFinalState() as object), taskKey: c.taskKey, taskType: 'error-analysis', seq: '001' });
    },
  },
  {
    id: 'h-running',
    run: 'ea',
    expect: null,
    plant: (c) => {
      c.edit(EA.manifest, (m) => {
        m.status = 'running';
        m.endedAt = null;
      });
      c.edit(EA.teamState, (s) => {
        s.workers[1] = { ...s.workers[1], status: 'in-progress', endedAt: null };
        s.workers[2] = writerRow({ status: 'pending' });
      });
      c.remove(EA.report);
      c.remove(EA.data);
    },
  },
];

/** Copy the case's stage-1 implementation run to stage-<n> (its own carry file included). */
function copyStage(c: CaseWriter, n: number): void {
  const s = 'implementation-001';
  const to = (rel: string) => rel.replace('stage-1', `stage-${n}`);
  for (const rel of [
    IMPL.manifest,
    IMPL.teamState,
    `${IMPL.dir}/prompts/report-writer-prompt-${s}.md`,
    `${IMPL.dir}/reports/final-report-${s}.md`,
    `${IMPL.dir}/reports/final-report-${s}.data.json`,
  ]) {
    c.write(to(rel), c.read(rel));
  }
  // Each stage's manifest names its own team-state (a stage-2 run pointing at stage-1's is foreign-artifact).
  c.edit(to(IMPL.manifest), (m) => void Object.assign(m, { stage: n, teamStatePath: to(String(m.teamStatePath)) }));
  c.write(to(IMPL.carry), { stage: n, evidence: [] });
}

/** The files of each clean run (paths relative to the clean fixture's task root), read once. */
let template: Map<string, string> | null = null;
function cleanTemplate(): Map<string, string> {
  if (template) return template;
  const p = makeCleanProject();
  const root = join(p.root, TASK_ROOT_REL);
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else files.set(relative(root, abs), readFileSync(abs, 'utf8'));
    }
  };
  walk(root);
  p.cleanup();
  template = files;
  return files;
}

/** Where one case's planted run lives and what must catch it. */
export interface PlantedRun {
  caseId: string;
  taskKey: string;
  /** Project-relative run directory. */
  runDir: string;
  expect: string | null;
}

/**
 * Write the corpus into a fresh project: one task `.okstra/tasks/corpus/<case-id>/`
 * per case, holding the case's clean run with its one edit.
 * @returns the project and, per case, the run a violation must (or must not) come from.
 */
export function makeCorpusProject(cases: readonly CorpusCase[] = CORPUS): { project: Project; runs: PlantedRun[] } {
  const project = makeProject('okstra-corpus-');
  project.remove(TASK_ROOT_REL);
  const runs: PlantedRun[] = [];
  const files = cleanTemplate();
  for (const k of cases) {
    const taskRoot = `.okstra/tasks/corpus/${k.id}`;
    const taskKey = `demo:corpus:${k.id}`;
    const map = (rel: string) => (rel.startsWith(TASK_ROOT_REL) ? taskRoot + rel.slice(TASK_ROOT_REL.length) : rel);
    const rewrite = (text: string) => text.replaceAll(TASK_ROOT_REL, taskRoot).replaceAll(TASK_KEY, taskKey);
    const prefix = k.run === 'impl' ? 'runs/implementation/' : `${RUN_DIR[k.run]}/`;
    project.write(`${taskRoot}/task-manifest.json`, { schemaVersion: '1.0', taskKey, projectId: 'demo', taskGroup: 'corpus', taskId: k.id });
    for (const [rel, text] of files) if (rel.startsWith(prefix)) project.write(`${taskRoot}/${rel}`, rewrite(text));
    const c: CaseWriter = {
      taskRoot,
      taskKey,
      write: (rel, content) => project.write(map(rel), rewrite(typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n')),
      read: (rel) => project.read(map(rel)),
      edit: (rel, fn) => project.edit(map(rel), fn),
      remove: (rel) => project.remove(map(rel)),
    };
    k.plant?.(c);
    runs.push({ caseId: k.id, taskKey, runDir: `${taskRoot}/${k.runDir ?? RUN_DIR[k.run]}`, expect: k.expect });
    for (const dir of k.alsoHealthy ?? []) runs.push({ caseId: `${k.id}@${dir}`, taskKey, runDir: `${taskRoot}/${dir}`, expect: null });
  }
  return { project, runs };
}
