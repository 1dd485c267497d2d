// A fresh breaker set for issue #38, written from the seeds and the issue's examples (not from the
// mutation generator's classes): single-mutation wrong runs, each contradicting one fact that two
// artifacts record, and legal runs that keep every fact consistent. Each case names the healthy
// bases it is applied to (test-support/mutants/healthy.ts). Its first-run figures are in
// docs/run-audit.md "The fact graph" and the lane notes. Not part of the build.
import { isWriter, shift, writerRow } from './mutants/helpers.js';
import { wrapperStatus } from './mutants/healthy.js';
import type { RunModel } from './mutants/model.js';

/** One breaker or legal run: the fact it touches, the bases it is applied to, the edit (false: does not fit). */
export interface FactCase {
  id: string;
  fact: string;
  bases: readonly string[];
  apply(r: RunModel): boolean;
}

const row = (r: RunModel, id: string) => r.rows.find((w) => w.workerId === id);
const promptOf = (r: RunModel, w: any) => r.local(w.promptPath) ?? r.p.prompt(w.workerId);
const resultOf = (r: RunModel, w: any) => r.local(w.resultPath) ?? r.p.result(w.workerId);
const statusOf = (r: RunModel, id: string) => promptOf(r, row(r, id)).replace(/\.md$/, '.status.json');
const editStatus = (r: RunModel, id: string, fn: (s: any) => void) => {
  const f = statusOf(r, id);
  if (!r.has(f)) return false;
  r.edit(f, fn);
  return true;
};
const editRecord = (r: RunModel, pred: (d: any) => boolean, fn: (d: any, m: any) => void) => {
  let hit = false;
  r.editManifest((m) => {
    const d = m.workerDispatches.find(pred);
    if (d) {
      fn(d, m);
      hit = true;
    }
  });
  return hit;
};
const setAnswer = (r: RunModel, id: string, text: string) => {
  const w = row(r, id);
  if (!w || w.status !== 'completed' || !r.has(resultOf(r, w))) return false;
  r.set(resultOf(r, w), text);
  return true;
};
/** A one-job report-writer jobs file as cmux.md names its fields, `edit` applied to the job. */
function writerJobs(r: RunModel, edit: (job: any) => void = () => {}): boolean {
  const w = writerRow(r);
  if (!w || !r.has(r.p.data) || r.manifest.reportAuthor !== 'report-writer') return false;
  const a = r.manifest.workerAssignments.find((x: any) => (x.workerId ?? x.provider) === w.workerId);
  const job = {
    workerId: w.workerId,
    provider: w.provider,
    role: w.role,
    modelExecutionValue: a?.executionValue ?? w.model ?? 'claude-model',
    promptPath: r.p.recorded(promptOf(r, w)),
    resultPath: r.p.recorded(r.p.data),
    workerResultPath: r.p.recorded(r.p.result(w.workerId)),
    completionPaths: [r.p.recorded(r.p.data), r.p.recorded(r.p.sidecar(w.workerId))],
  };
  edit(job);
  r.setJson(r.p.rwJobs, { schemaVersion: '1.0', dispatchKind: 'report-writer', jobs: [job] });
  return true;
}
const ERRORS = 'errors-2026-11-29.jsonl';
const editErrorLine = (r: RunModel, fn: (line: any) => void) => {
  if (!r.has(ERRORS)) return false;
  const line = JSON.parse(r.text(ERRORS).split('\n')[0]!);
  fn(line);
  r.set(ERRORS, JSON.stringify(line) + '\n');
  return true;
};
const finalIds = (r: RunModel): string[] => (r.has(r.p.final) ? r.json(r.p.final).findings.map((f: any) => f.id) : []);
const appendReport = (r: RunModel, text: string) => r.has(r.p.report) && (r.set(r.p.report, r.text(r.p.report) + text), true);
const ZERO = `sha256:${'0'.repeat(64)}`;

export const FACT_BREAKERS: FactCase[] = [
  // ── provenance: worker ↔ pane ↔ prompt ↔ result
  {
    id: 'pane-credited-to-two-workers',
    fact: 'a pane belongs to one worker (workerDispatches[].paneId)',
    bases: ['cmux', 'redispatch'],
    apply: (r) => {
      const first = r.manifest.workerDispatches.find((d: any) => d.paneId);
      return editRecord(
        r,
        (d) => d.paneId && d.workerId !== first.workerId,
        (d) => (d.paneId = first.paneId),
      );
    },
  },
  {
    id: 'dispatch-record-launched-other-prompt',
    fact: "a dispatch record's promptPath is its worker's prompt",
    bases: ['ea', 'redispatch', 'cmux'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.workerId === 'codex',
        (d) => (d.promptPath = r.p.recorded(r.p.prompt('claude'))),
      ),
  },
  {
    id: 'jobs-file-prompt-other-worker',
    fact: "a jobs file's promptPath is its worker's prompt",
    bases: ['ea', 'sample-plan'],
    apply: (r) => writerJobs(r, (j) => (j.promptPath = r.p.recorded(r.p.prompt('codex')))),
  },
  {
    id: 'jobs-file-result-other-worker',
    fact: "a jobs file's workerResultPath is its worker's result",
    bases: ['ea', 'sample-plan'],
    apply: (r) => writerJobs(r, (j) => (j.workerResultPath = r.p.recorded(r.p.result('codex')))),
  },
  {
    id: 'jobs-file-worker-other-provider',
    fact: "a jobs file's provider is its worker's assignment's",
    bases: ['ea', 'sample-plan'],
    apply: (r) => writerJobs(r, (j) => (j.provider = 'codex')),
  },
  {
    id: 'jobs-file-model-not-assignment',
    fact: "a jobs file's modelExecutionValue is its worker's assignment's executionValue",
    bases: ['sample-plan'],
    apply: (r) => writerJobs(r, (j) => (j.modelExecutionValue = 'gpt-4.1-mini')),
  },
  {
    id: 'jobs-file-completion-other-task',
    fact: "a jobs file's completion paths lie in this run",
    bases: ['ea', 'sample-plan'],
    apply: (r) => writerJobs(r, (j) => (j.completionPaths[1] = j.completionPaths[1].replace('@@TASK_ROOT@@', '.okstra/tasks/gen/other-task'))),
  },
  {
    id: 'status-sidecar-completed-exit-137',
    fact: "a status sidecar's status agrees with its exit code",
    bases: ['redispatch', 'degraded'],
    apply: (r) =>
      editStatus(r, 'codex', (s) => {
        s.exitCode = 137;
        s.signal = 'SIGKILL';
      }),
  },
  {
    id: 'status-sidecar-completed-exit-1',
    fact: "a status sidecar's status agrees with its exit code",
    bases: ['degraded'],
    apply: (r) => editStatus(r, 'codex', (s) => (s.exitCode = 1)),
  },
  {
    id: 'status-sidecar-duration-contradicts-times',
    fact: "a status sidecar's durationMs is its endedAt − startedAt",
    bases: ['degraded', 'redispatch'],
    apply: (r) => editStatus(r, 'codex', (s) => (s.durationMs = 5_000)),
  },
  {
    id: 'status-sidecar-other-dispatch-kind',
    fact: "the current status sidecar's dispatchKind is the row's",
    bases: ['redispatch'],
    apply: (r) => editStatus(r, 'codex', (s) => (s.dispatchKind = 'initial')),
  },
  {
    id: 'status-sidecar-other-worker',
    fact: "a status sidecar's workerId is its row's",
    bases: ['degraded'],
    apply: (r) => editStatus(r, 'codex', (s) => (s.workerId = 'claude')),
  },
  {
    id: 'error-row-sidecar-completed',
    fact: "a row's terminal status is its current status sidecar's",
    bases: ['degraded'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => Object.assign(w, { status: 'error', reason: 'provider exited 1', failures: 1 }),
      ),
  },
  {
    id: 'status-sidecar-started-after-row-ended',
    fact: 'a status sidecar runs inside its row',
    bases: ['degraded'],
    apply: (r) =>
      editStatus(r, 'codex', (s) => {
        s.startedAt = '2026-11-29T08:26:00Z';
        s.endedAt = '2026-11-29T08:25:30Z';
        s.durationMs = 0;
      }),
  },
  // ── results that are not answers: another artifact's shape
  {
    id: 'result-is-wrapper-status-json',
    fact: 'a result is not the wrapper status sidecar',
    bases: ['degraded', 'redispatch'],
    apply: (r) => setAnswer(r, 'codex', r.text(statusOf(r, 'codex'))),
  },
  {
    id: 'result-is-job-file',
    fact: 'a result is not a job file',
    bases: ['ea', 'sample-plan'],
    apply: (r) =>
      setAnswer(
        r,
        'codex',
        JSON.stringify(
          {
            schemaVersion: '1.0',
            dispatchKind: 'initial',
            workerId: 'codex',
            provider: 'codex',
            role: 'analyser',
            model: 'codex-model',
            promptPath: r.p.recorded(r.p.prompt('codex')),
            resultPath: r.p.recorded(r.p.result('codex')),
            completionPaths: [r.p.recorded(r.p.result('codex'))],
            promptDelivery: 'stdin',
            command: { file: 'codex', args: ['exec', '--json'] },
            rowStartedAt: '2026-11-29T08:01:00Z',
          },
          null,
          2,
        ) + '\n',
      ),
  },
  {
    id: 'result-is-provider-stderr-line',
    fact: 'a result is not a provider stderr line',
    bases: ['ea', 'sample-plan'],
    apply: (r) => setAnswer(r, 'codex', "thread 'main' panicked at codex-rs/core/src/client.rs:412:9: stream disconnected before completion\n"),
  },
  {
    id: 'result-is-stream-error-line',
    fact: 'a result is not a provider stderr line',
    bases: ['ea'],
    apply: (r) => setAnswer(r, 'codex', '[2026-11-29T08:24:40] stream error: exceeded retry limit, last status: 429 Too Many Requests; retrying 5/5 in 32s…\n'),
  },
  {
    id: 'result-is-max-turns-event',
    fact: 'a result is not a single max-turns event',
    bases: ['ea', 'sample-plan'],
    apply: (r) =>
      setAnswer(
        r,
        'claude',
        JSON.stringify({
          type: 'result',
          subtype: 'error_max_turns',
          is_error: true,
          duration_ms: 912000,
          num_turns: 31,
          session_id: 'b1c2',
          total_cost_usd: 1.82,
        }) + '\n',
      ),
  },
  {
    id: 'result-is-codex-turn-failed-event',
    fact: 'a result is not a single provider event',
    bases: ['ea'],
    apply: (r) => setAnswer(r, 'codex', JSON.stringify({ type: 'turn.failed', error: { message: 'max turns reached' } }) + '\n'),
  },
  {
    id: 'result-is-wrapper-log',
    fact: 'a result is not the wrapper log',
    bases: ['redispatch', 'degraded'],
    apply: (r) => setAnswer(r, 'codex', r.text(r.p.log('codex'))),
  },
  {
    id: 'result-is-other-workers-prompt',
    fact: 'a result is not a prompt',
    bases: ['ea', 'sample-plan'],
    apply: (r) => setAnswer(r, 'codex', r.text(promptOf(r, row(r, 'claude')))),
  },
  // ── models and assignments
  {
    id: 'row-model-not-assignment',
    fact: "a row's model is its assignment's",
    bases: ['sample-plan'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.model = 'gpt-4o'),
      ),
  },
  {
    id: 'row-model-not-assignment-writer',
    fact: "a row's model is its assignment's",
    bases: ['sample-plan'],
    apply: (r) => r.editRow(isWriter, (w) => (w.model = 'claude-opus-4-1')),
  },
  {
    id: 'row-role-other-known-role',
    fact: "a row's role is its assignment's",
    bases: ['sample-plan'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.role = 'Report writer worker'),
      ),
  },
  {
    id: 'row-provider-not-assignment',
    fact: "a row's provider is its assignment's",
    bases: ['ea'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.provider = 'gemini'),
      ),
  },
  // ── retry budget
  {
    id: 'retried-row-counts-0-failures',
    fact: "a row's failures count its failed dispatches",
    bases: ['redispatch'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.failures = 0),
      ),
  },
  {
    id: 'retried-row-failures-dropped',
    fact: "a row's failures count its failed dispatches",
    bases: ['redispatch'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => delete w.failures,
      ),
  },
  {
    id: 'failed-first-record-erased',
    fact: "a row's attempt counts its dispatch records",
    bases: ['redispatch'],
    apply: (r) => {
      let hit = false;
      r.editManifest((m) => {
        const i = m.workerDispatches.findIndex((d: any) => d.workerId === 'codex' && d.dispatchKind === 'initial');
        if (i >= 0) {
          m.workerDispatches.splice(i, 1);
          hit = true;
        }
      });
      return hit;
    },
  },
  {
    id: 'third-dispatch-other-kind',
    fact: "a row's attempt counts its dispatch records",
    bases: ['redispatch'],
    apply: (r) => {
      r.editManifest((m) =>
        m.workerDispatches.push({
          dispatchKind: 'report-writer',
          workerId: 'codex',
          backend: 'tmux-pane',
          paneId: '%9',
          startedAt: '2026-11-29T08:30:00Z',
          tornDownAt: '2026-11-29T08:58:00Z',
        }),
      );
      return true;
    },
  },
  {
    id: 'retry-row-attempt-1',
    fact: "a row's attempt counts its dispatch records",
    bases: ['redispatch'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.attempt = 1),
      ),
  },
  {
    id: 'retry-row-kind-initial',
    fact: "a row's dispatchKind is its newest dispatch record's",
    bases: ['redispatch'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.dispatchKind = 'initial'),
      ),
  },
  {
    id: 'retry-record-before-first',
    fact: 'a retry is dispatched after the dispatch it retries',
    bases: ['redispatch'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.dispatchKind === 'initial-retry',
        (d) => (d.startedAt = '2026-11-29T08:00:30Z'),
      ),
  },
  // ── degrade records
  {
    id: 'degrade-record-cleared',
    fact: 'a subprocess dispatch in a pane run records what it degraded from',
    bases: ['degraded'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.backend === 'subprocess',
        (d) => (delete d.degradedFrom, delete d.reason),
      ),
  },
  {
    id: 'degrade-names-other-backend',
    fact: "a degraded dispatch degraded from the run's terminal backend",
    bases: ['degraded', 'ea'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.backend === 'subprocess',
        (d) => (d.degradedFrom = 'cmux-pane'),
      ),
  },
  {
    id: 'pane-record-other-backend',
    fact: "a pane dispatch runs on the run's terminal backend",
    bases: ['cmux'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.workerId === 'codex',
        (d) => Object.assign(d, { backend: 'tmux-pane', paneId: '%8', surfaceId: null }),
      ),
  },
  {
    id: 'pane-record-in-paneless-run',
    fact: "a pane dispatch runs on the run's terminal backend",
    bases: ['ea'],
    apply: (r) => (r.editManifest((m) => (m.terminalBackend = 'none')), true),
  },
  // ── errors log, task keys
  {
    id: 'errors-line-other-task-same-type-seq',
    fact: 'an errors-log line names its run by task key, type and seq',
    bases: ['failed-logged', 'aborted'],
    apply: (r) => editErrorLine(r, (l) => (l.taskKey = 'gen:gen:another-task')),
  },
  {
    id: 'errors-line-other-stage',
    fact: 'an errors-log line names its run by task key, type and seq',
    bases: ['failed-logged'],
    apply: (r) => editErrorLine(r, (l) => (l.taskType = 'implementation')),
  },
  {
    id: 'team-state-other-task',
    fact: "the team-state's taskKey is the run's",
    bases: ['ea', 'sample-plan'],
    apply: (r) => (r.edit(r.p.teamState, (s: any) => (s.taskKey = 'gen:gen:another-task')), true),
  },
  {
    id: 'data-json-other-seq',
    fact: "data.json's seq is the run's",
    bases: ['sample-plan'],
    apply: (r) => (r.edit(r.p.data, (d: any) => (d.seq = '002')), true),
  },
  // ── report ↔ state
  {
    id: 'report-cites-finding-final-lacks',
    fact: 'a finding the report cites is in the final state',
    bases: ['ea', 'ea-round'],
    apply: (r) => finalIds(r).length > 0 && appendReport(r, '\n## Findings\n\n| id | status |\n|---|---|\n| F-999 | agreed |\n'),
  },
  {
    id: 'data-json-cites-finding-final-lacks',
    fact: 'a finding data.json cites is in the final state',
    bases: ['ea', 'ea-round'],
    apply: (r) => {
      if (finalIds(r).length === 0) return false;
      r.edit(r.p.data, (d: any) => (d.findings = [...finalIds(r), 'F-999'].map((id) => ({ id }))));
      return true;
    },
  },
  {
    id: 'data-json-drops-agreed-finding',
    fact: 'data.json holds every agreed finding of the final state',
    bases: ['ea-round'],
    apply: (r) => {
      const f = r.json(r.p.final).findings;
      const agreed = f.filter((x: any) => x.status === 'agreed');
      if (agreed.length === 0) return false;
      r.edit(r.p.data, (d: any) => (d.findings = f.filter((x: any) => x !== agreed[0]).map((x: any) => ({ id: x.id, status: x.status }))));
      return true;
    },
  },
  {
    id: 'final-drops-finding-adjusts-counts',
    fact: 'every seeded finding is in the final state',
    bases: ['ea-round'],
    apply: (r) => {
      r.edit(r.p.final, (s: any) => {
        const gone = s.findings.pop();
        s.counts.total -= 1;
        s.counts[gone.status] -= 1;
        s.counts[gone.source] -= 1;
      });
      return true;
    },
  },
  {
    id: 'final-seed-digest-zeroed',
    fact: "the final state's seedDigest is the round plans' and the groups'",
    bases: ['ea-round'],
    apply: (r) => (r.edit(r.p.final, (s: any) => (s.seedDigest = ZERO)), true),
  },
  {
    id: 'round-plan-seed-digest-zeroed',
    fact: "a round plan's seedDigest is the final state's",
    bases: ['ea-round'],
    apply: (r) => (r.edit(r.p.roundPlan(1), (s: any) => (s.seedDigest = ZERO)), true),
  },
  {
    id: 'final-rounds-beyond-saved',
    fact: "the final state's rounds are the saved rounds",
    bases: ['ea-round'],
    apply: (r) => (r.edit(r.p.final, (s: any) => (s.rounds = 3)), true),
  },
  {
    id: 'final-vote-verdict-flipped',
    fact: 'a final vote is the saved round result',
    bases: ['ea-round'],
    apply: (r) => {
      let hit = false;
      r.edit(r.p.final, (s: any) => {
        const v = s.findings.flatMap((f: any) => f.votes).find((x: any) => x.round === 1);
        if (v) {
          v.verdict = v.verdict === 'SURVIVES' ? 'REFUTED' : 'SURVIVES';
          hit = true;
        }
      });
      return hit;
    },
  },
  {
    id: 'data-json-approved-report-not',
    fact: "data.json's frontmatter approved is the report's",
    bases: ['sample-plan'],
    apply: (r) => (r.edit(r.p.data, (d: any) => ((d.frontmatter ??= {}).approved = true)), true),
  },
  {
    id: 'data-json-drops-clarification-item',
    fact: "data.json's clarification items are the report's section 1 rows",
    bases: ['sample-plan'],
    apply: (r) => (r.edit(r.p.data, (d: any) => (d.clarificationItems = d.clarificationItems.filter((c: any) => c.id !== 'C-007'))), true),
  },
  {
    id: 'report-drops-clarification-row',
    fact: "data.json's clarification items are the report's section 1 rows",
    bases: ['sample-plan'],
    apply: (r) => (r.set(r.p.report, r.text(r.p.report).replace(/^\| C-002 .*\n/m, '')), true),
  },
  {
    id: 'data-json-author-lead',
    fact: "data.json's reportAuthor is the run-manifest's",
    bases: ['sample-plan'],
    apply: (r) => (r.edit(r.p.data, (d: any) => (d.frontmatter.reportAuthor = 'lead')), true),
  },
  {
    id: 'data-json-generated-before-writer',
    fact: "data.json's generatedAt lies in its writer's window",
    bases: ['sample-plan'],
    apply: (r) => (r.edit(r.p.data, (d: any) => (d.frontmatter.generatedAt = '2026-11-28T13:00:00Z')), true),
  },
  {
    id: 'plan-contributor-not-a-worker',
    fact: 'plan-verification contributors are the run’s workers',
    bases: ['sample-plan', 'plan'],
    apply: (r) => {
      let hit = false;
      r.edit(r.p.data, (d: any) => {
        const v = d.implementationPlanning?.planBodyVerification;
        if (v?.contributors?.length) {
          v.contributors[1] = 'grok';
          hit = true;
        }
      });
      return hit;
    },
  },
  {
    id: 'plan-items-stage-changed',
    fact: 'the persisted P-* queue is data.json’s',
    bases: ['sample-plan'],
    apply: (r) => {
      if (!r.has(r.p.planItems)) return false;
      r.edit(r.p.planItems, (q: any) => {
        const step = q.items.find((i: any) => i.stage != null);
        step.stage += 1;
      });
      return true;
    },
  },
  // ── times and their order
  {
    id: 'dispatch-record-after-row-ended',
    fact: "a worker's newest dispatch record starts inside its row",
    bases: ['ea', 'cmux'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.workerId === 'claude',
        (d) => (d.startedAt = '2026-11-29T08:30:00Z'),
      ),
  },
  {
    id: 'row-started-before-run',
    fact: 'a row starts inside its run',
    bases: ['sample-plan'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.startedAt = '2026-11-28T13:00:00Z'),
      ),
  },
  {
    id: 'row-ended-after-run',
    fact: 'a row ends inside its run',
    bases: ['ea'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.endedAt = '2026-11-29T09:30:00Z'),
      ),
  },
  {
    id: 'status-sidecar-ended-after-row',
    fact: 'a status sidecar ends before its row',
    bases: ['redispatch'],
    apply: (r) =>
      editStatus(r, 'codex', (s) => {
        s.endedAt = '2026-11-29T08:40:00Z';
        s.durationMs = Date.parse(s.endedAt) - Date.parse(s.startedAt);
      }),
  },
  {
    id: 'heartbeat-after-row-ended',
    fact: "a worker's heartbeats lie inside its row",
    bases: ['ea'],
    apply: (r) => {
      const f = r.p.sidecar('claude');
      if (!r.has(f)) return false;
      r.set(f, r.text(f).replace('\n\n## Evidence read', '\n- PROGRESS: 2026-11-29T08:47:10Z round-1 still checking step 9\n\n## Evidence read'));
      return true;
    },
  },
  {
    id: 'writer-started-before-analyser-ended',
    fact: 'the report writer starts after the analysers end',
    bases: ['ea'],
    apply: (r) => r.editRow(isWriter, (w) => (w.startedAt = '2026-11-29T08:10:00Z')),
  },
  {
    id: 'pane-torn-down-before-row-ended',
    fact: "a pane's teardown follows its worker's end",
    bases: ['cmux'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.workerId === 'codex',
        (d) => (d.tornDownAt = '2026-11-29T08:15:00Z'),
      ),
  },
  // ── statuses and reasons
  {
    id: 'completed-row-sidecar-error',
    fact: "a row's terminal status is its current status sidecar's",
    bases: ['degraded'],
    apply: (r) =>
      editStatus(r, 'codex', (s) => {
        s.status = 'error';
        s.exitCode = 1;
        s.reason = 'provider exited 1';
      }),
  },
  {
    id: 'manifest-completed-row-in-progress',
    fact: "a run's status and its rows' statuses",
    bases: ['ea'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => ((w.status = 'in-progress'), delete w.endedAt),
      ),
  },
  {
    id: 'lead-author-writer-completed',
    fact: "the report's author is the writer's row status",
    bases: ['ea'],
    apply: (r) => (r.editManifest((m) => (m.reportAuthor = 'lead')), true),
  },
  {
    id: 'writer-credited-not-run',
    fact: "the report's author is the writer's row status",
    bases: ['sample-plan'],
    apply: (r) => r.editRow(isWriter, (w) => Object.assign(w, { status: 'not-run', reason: 'roster changed' })),
  },
  {
    id: 'stage-carry-other-stage',
    fact: "the carry file's stage is the run's",
    bases: ['multi-stage'],
    apply: (r) => r.has(r.p.carry(2)) && (r.setJson(r.p.carry(2), { stage: 1, evidence: [] }), true),
  },
  {
    id: 'report-frontmatter-other-type',
    fact: "the report frontmatter's taskType is the run's",
    bases: ['sample-plan'],
    apply: (r) => (r.set(r.p.report, r.text(r.p.report).replace('taskType: implementation-planning', 'taskType: error-analysis')), true),
  },
];

export const FACT_LEGAL: FactCase[] = [
  { id: 'ok-writer-jobs-file', fact: 'a jobs file agreeing with its row and assignment', bases: ['ea', 'sample-plan'], apply: (r) => writerJobs(r) },
  {
    id: 'ok-dispatch-record-own-prompt',
    fact: 'a dispatch record naming its own prompt',
    bases: ['ea', 'redispatch', 'cmux'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.workerId === 'codex',
        (d) => (d.promptPath = r.p.recorded(promptOf(r, row(r, 'codex')))),
      ),
  },
  {
    id: 'ok-errors-line-own-task-key',
    fact: 'an errors line naming its run by task key',
    bases: ['failed-logged', 'aborted'],
    apply: (r) => editErrorLine(r, (l) => (l.taskKey = '@@TASK_KEY@@')),
  },
  {
    id: 'ok-status-sidecar-offsets',
    fact: 'a status sidecar with +09:00 times',
    bases: ['degraded'],
    apply: (r) =>
      editStatus(r, 'codex', (s) => {
        s.startedAt = '2026-11-29T17:01:03+09:00';
        s.endedAt = '2026-11-29T17:24:40+09:00';
      }),
  },
  {
    id: 'ok-status-sidecar-ms-rounding',
    fact: 'a status sidecar whose duration carries milliseconds the times round away',
    bases: ['degraded'],
    apply: (r) =>
      editStatus(r, 'codex', (s) => {
        s.startedAt = '2026-11-29T08:01:03.412Z';
        s.endedAt = '2026-11-29T08:24:40.087Z';
        s.durationMs = Date.parse(s.endedAt) - Date.parse(s.startedAt) + 1;
      }),
  },
  {
    id: 'ok-error-row-error-sidecar',
    fact: 'an errored analyser whose sidecar says error, the run completed without it',
    bases: ['degraded'],
    apply: (r) => {
      editStatus(r, 'codex', (s) => Object.assign(s, { status: 'error', exitCode: 1, reason: 'provider exited 1' }));
      return r.editRow(
        (w) => w.workerId === 'codex',
        (w) => Object.assign(w, { status: 'error', reason: 'provider exited 1', failures: 1 }),
      );
    },
  },
  {
    id: 'ok-killed-sidecar-error',
    fact: 'a status sidecar error with a signal and no exit code',
    bases: ['degraded'],
    apply: (r) => {
      editStatus(r, 'codex', (s) => Object.assign(s, { status: 'error', exitCode: null, signal: 'SIGTERM', reason: 'stopped by teardown --force' }));
      return r.editRow(
        (w) => w.workerId === 'codex',
        (w) => Object.assign(w, { status: 'timeout', reason: 'stalled twice', failures: 2 }),
      );
    },
  },
  {
    id: 'ok-report-cites-final-findings',
    fact: 'a report and data.json citing the final state’s findings',
    bases: ['ea', 'ea-round'],
    apply: (r) => {
      const ids = finalIds(r);
      if (ids.length === 0) return false;
      r.edit(r.p.data, (d: any) => (d.findings = ids.map((id) => ({ id }))));
      return appendReport(r, `\n## Findings\n\n${ids.map((id) => `- ${id}`).join('\n')}\n`);
    },
  },
  {
    id: 'ok-report-other-id-kinds',
    fact: 'a report citing clarification, requirement and plan ids beside findings',
    bases: ['ea-round'],
    apply: (r) => appendReport(r, '\nSee C-001, R-2, P-Step-1-1 and G-1 (a coverage gap).\n'),
  },
  {
    id: 'ok-row-model-case',
    fact: 'a row with no model (the assignment holds it)',
    bases: ['sample-plan'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => delete w.model,
      ),
  },
  {
    id: 'ok-row-role-case',
    fact: "a row's role written in another case than its assignment's",
    bases: ['sample-plan'],
    apply: (r) =>
      r.editRow(
        (w) => w.workerId === 'codex',
        (w) => (w.role = 'codex worker'),
      ),
  },
  {
    id: 'ok-pane-id-other-socket',
    fact: 'two workers with one pane id on two tmux servers',
    bases: ['redispatch'],
    apply: (r) => {
      r.editManifest((m) => {
        for (const d of m.workerDispatches) if (d.backend === 'tmux-pane') d.tmuxSocket = `/tmp/tmux-okstra/${d.workerId}-${d.dispatchKind}`;
        const d = m.workerDispatches.find((x: any) => x.dispatchKind === 'initial-retry');
        d.paneId = '%1';
      });
      return true;
    },
  },
  {
    id: 'ok-data-json-generated-at-writer-end-offset',
    fact: "data.json's generatedAt at the writer's end, in +09:00",
    bases: ['sample-plan'],
    apply: (r) => (r.edit(r.p.data, (d: any) => (d.frontmatter.generatedAt = '2026-11-29T00:42:10+09:00')), true),
  },
  {
    id: 'ok-cmux-degraded-subprocess',
    fact: 'a cmux run whose second worker degraded to a subprocess',
    bases: ['cmux'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.workerId === 'codex',
        (d) =>
          Object.assign(d, {
            backend: 'subprocess',
            paneId: null,
            surfaceId: null,
            tornDownAt: null,
            degradedFrom: 'cmux-pane',
            reason: 'cmux new-split failed',
          }),
      ),
  },
  {
    id: 'ok-retry-same-worker-two-panes',
    fact: 'a retried worker whose two dispatches had two panes, the first torn down',
    bases: ['redispatch'],
    apply: (r) =>
      editRecord(
        r,
        (d) => d.dispatchKind === 'initial-retry',
        (d) => (d.paneId = '%7'),
      ),
  },
  {
    id: 'ok-heartbeat-inside-row',
    fact: 'an extra heartbeat inside the row',
    bases: ['ea'],
    apply: (r) => {
      const f = r.p.sidecar('claude');
      r.set(f, r.text(f).replace('\n\n## Evidence read', '\n- PROGRESS: 2026-11-29T08:19:50Z round-1 writing the result\n\n## Evidence read'));
      return true;
    },
  },
  {
    id: 'ok-clarification-items-extra-report-column',
    fact: "a report whose section 1 table carries a Status column beside data.json's items",
    bases: ['sample-plan'],
    apply: (r) => {
      const t = r.text(r.p.report).replace('| ID | Question | Blocks |\n|---|---|---|', '| ID | Question | Blocks | Status |\n|---|---|---|---|');
      r.set(r.p.report, t.replace(/^(\| C-00\d .*\|)$/gm, '$1 open |'));
      return true;
    },
  },
  {
    id: 'ok-result-json-answer',
    fact: 'a JSON answer that is an object of findings, not a status or job',
    bases: ['ea'],
    apply: (r) =>
      setAnswer(
        r,
        'codex',
        JSON.stringify({ findings: [{ id: 'F-2', claim: 'the refund retry loop has no deadline', evidence: ['src/queue.ts:42'] }] }, null, 2) + '\n',
      ),
  },
  {
    id: 'ok-sidecar-earlier-dispatch-other-kind',
    fact: "an earlier dispatch's status sidecar (started before the row) naming the earlier kind",
    bases: ['redispatch'],
    apply: (r) => (r.set(statusOf(r, 'codex'), wrapperStatus('codex', 'error', '2026-11-29T08:01:03Z', '2026-11-29T08:11:00Z', 'initial')), true),
  },
  {
    id: 'ok-writer-started-after-shift',
    fact: 'a writer that starts later',
    bases: ['ea'],
    apply: (r) => r.editRow(isWriter, (w) => (w.startedAt = shift(w.startedAt, 2))),
  },
];
