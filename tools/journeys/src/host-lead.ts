import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Lead } from './lead.js';
import { finalReport, type JourneyProject, type JourneyWorker } from './project.js';
import { exampleOf } from './texts.js';
import { answerInShape, batchIds, runNativeWorker } from './workers.js';

const TOOLS = 'prompts/lead/okstra-tools.md';
const ROUNDS = 'prompts/lead/convergence-rounds.md';

/**
 * A host lead's error-analysis run (Claude Code, Codex, Antigravity: prompts/lead/adapters/claude-code.md and
 * hosts.md — "claude-code.md with the host primitives swapped"), walked through the adapter's and the flows'
 * own command lines: the initial dispatch (native rows recorded, CLI rows through okstra team, one CLI worker
 * failing and retried), the reverify rounds (a native worker stalling and recorded timeout, its retry batch
 * next round, a CLI worker's refused answer repaired), the critic's gap vote, finalize, the native report
 * writer, finish, run-audit and teardown.
 */
export function hostLeadJourney(lead: Lead, adapter: string, workers: readonly JourneyWorker[]): void {
  const p = lead.p;
  const native = workers.filter((w) => w.runner === 'native-session' && w.id !== 'report-writer');
  const cli = workers.filter((w) => w.runner === 'cli-wrapper');
  const analysers = workers.filter((w) => w.role !== 'Coverage critic' && w.id !== 'report-writer');
  const suffix = `${p.taskType}-${p.seq}`;
  const rowOf = (id: string) => JSON.parse(readFileSync(lead.abs(p.teamState), 'utf8')).workers.find((r: { workerId: string }) => r.workerId === id);

  // 1. Initial dispatch: record each native row, start it (the host's Agent: simulated), dispatch the CLI rows.
  for (const w of native) {
    lead.run(
      adapter,
      { command: ['worker-state', 'transition'], with: { '--status': 'in-progress', '--dispatch-kind': 'initial' } },
      { '<worker>': w.id, '<model>': w.model },
    );
    runNativeWorker(p.root, {
      sidecarPath: lead.abs(`${p.run}/worker-results/${w.id}-${suffix}.audit.md`),
      resultPath: lead.abs(`${p.run}/worker-results/${w.id}-${suffix}.md`),
      answer: '# Findings\n\n### F-001 Refund timeout compares seconds with milliseconds\nisExpired() compares seconds with milliseconds.\n',
    });
  }
  lead.run(adapter, { command: ['team', 'dispatch'], without: ['--jobs-file', '--dry-run'] });
  for (const w of native) lead.run(adapter, { command: ['worker-state', 'transition'], with: { '--status': 'completed' } }, { '<id>': w.id });
  lead.run(adapter, { command: ['worker-liveness'] }, { '<id>': cli.map((w) => w.id) }, [0, 1]);
  const first = lead.run(adapter, { command: ['team', 'await'] }, {}, [0, 1]).json;
  // The CLI worker that failed is retried once: a fresh jobs file holding only its job, the retry kind.
  for (const failed of first.workers.filter((w: { status: string; retryable: boolean }) => w.status !== 'completed')) {
    expect(failed.retryable).toBe(true);
    const w = workers.find((x) => x.id === failed.workerId)!;
    const jobsFile = `${p.run}/state/initial-retry-jobs-${suffix}.json`;
    writeJobsFile(lead, jobsFile, 'initial-retry', [
      { ...w, prompt: `${p.run}/prompts/${w.id}-prompt-${suffix}.md`, result: `${p.run}/worker-results/${w.id}-${suffix}.md` },
    ]);
    lead.run(adapter, { command: ['team', 'dispatch'], with: { '--dispatch-kind': 'initial-retry' } }, { '<jobs-file>': jobsFile });
    expect(lead.run(adapter, { command: ['team', 'await'] }).json.allCompleted).toBe(true);
  }
  for (const w of analysers) lead.run(adapter, { command: ['worker-audit-check'] }, { '<id>': w.id });

  // 2. Seed: the groups file, clustered from the analysers' findings in the shape `example --kind groups` prints.
  const example = lead.run(ROUNDS, { command: ['convergence', 'example'] }).json;
  const groups = {
    ...example,
    taskKey: p.taskKey,
    taskType: p.taskType,
    seq: p.seq,
    roster: workers
      .filter((w) => w.id !== 'report-writer')
      .map((w) => ({ workerId: w.id, provider: w.provider, role: w.role === 'Coverage critic' ? 'critic' : 'analyser', modelExecutionValue: w.model })),
    findings: example.findings.slice(0, 2).map((f: { authors: string[] }, i: number) => ({ ...f, authors: [analysers[i % analysers.length]!.id] })),
  };
  writeFileSync(lead.abs(`${p.run}/state/convergence-groups-${suffix}.json`), JSON.stringify(groups, null, 2) + '\n');
  lead.run(ROUNDS, { command: ['convergence', 'seed'] });

  // 3. Rounds until the queue is terminal.
  let stalled = false;
  for (let n = 1; n <= 6; n++) {
    const N = String(n);
    const planned = lead.run(ROUNDS, { command: ['convergence', 'plan-round'] }, { '<N>': N }).json;
    if (planned.queueTerminal) break;
    const rendered = lead.run(ROUNDS, { command: ['convergence', 'render-prompts'], with: { '--plan': true } }, { '<N>': N }).json;
    for (const entry of rendered.prompts.filter((e: { runner: string }) => e.runner === 'native-session')) {
      lead.run(ROUNDS, { command: ['worker-state', 'transition'] }, nativeRecordValues(entry, rendered.dispatchKind));
      if (!stalled) {
        // This native worker stalls: no heartbeat, no result. The lead's probe says stalled; it records timeout.
        stalled = true;
        lead.run(
          adapter,
          { command: ['worker-state', 'transition'], with: { '--status': 'timeout' } },
          { '<id>': entry.workerId, '<time>': rowOf(entry.workerId).startedAt },
        );
        continue;
      }
      runNativeWorker(p.root, {
        sidecarPath: entry.auditSidecarPath,
        resultPath: entry.resultPath,
        answer: answerInShape('prompts/workers/reverify-adversarial.md', 'reverify-adversarial', batchIds(entry.promptPath), 'SURVIVES'),
      });
      lead.run(adapter, { command: ['worker-state', 'transition'], with: { '--status': 'completed' } }, { '<id>': entry.workerId });
    }
    if (rendered.jobsFile) lead.run(ROUNDS, { command: ['team', 'dispatch'], with: { '--dispatch-kind': 'reverify-r<N>' } }, { '<N>': N });
    lead.run(ROUNDS, { command: ['team', 'await'], with: { '--output': true } }, { '<N>': N }, [0, 1]);
    const collect = () => lead.run(ROUNDS, { command: ['convergence', 'collect-results'] }, { '<N>': N }, [0, 2]);
    let collected = collect();
    if (collected.code === 2) {
      expect(collected.json?.repair, collected.stderr).toBeTruthy();
      lead.run(ROUNDS, { command: ['team', 'dispatch'], with: { '--dispatch-kind': 'repair-reverify-r<N>' } }, { '<N>': N });
      lead.run(ROUNDS, { command: ['team', 'await'], with: { '--output': true } }, { '<N>': N }, [0, 1]);
      collected = collect();
      expect(collected.code, collected.stderr).toBe(0);
    }
    lead.run(ROUNDS, { command: ['convergence', 'apply-round'] }, { '<N>': N });
    lead.run(adapter, { command: ['team', 'teardown'] }, {}, [0, 1]);
  }

  // 4. The critic's gap vote, then finalize and validate.
  const gap = lead.run(ROUNDS, { command: ['convergence', 'render-prompts'], with: { '--gap-vote': true } }).json;
  for (const entry of gap.prompts.filter((e: { runner: string }) => e.runner === 'native-session')) {
    lead.run(ROUNDS, { command: ['worker-state', 'transition'] }, nativeRecordValues(entry, gap.dispatchKind));
    runNativeWorker(p.root, {
      sidecarPath: entry.auditSidecarPath,
      resultPath: entry.resultPath,
      answer: answerInShape('prompts/workers/gap-vote.md', 'gap-vote', batchIds(entry.promptPath), 'SURVIVES'),
    });
    lead.run(adapter, { command: ['worker-state', 'transition'], with: { '--status': 'completed' } }, { '<id>': entry.workerId });
  }
  if (gap.jobsFile) lead.run(ROUNDS, { command: ['team', 'dispatch'], with: { '--dispatch-kind': 'gap-vote' } });
  lead.run(ROUNDS, { command: ['team', 'await'], with: { '--output': '<run>/state/await-gap-vote-<type>-<seq>.json' } });
  lead.run(ROUNDS, { command: ['convergence', 'collect-critic-gaps'] });
  lead.run(ROUNDS, { command: ['convergence', 'apply-critic-gaps'] });
  lead.run(adapter, { command: ['team', 'teardown'] }, {}, [0, 1]);
  lead.run(ROUNDS, { command: ['convergence', 'finalize'] });
  lead.run(ROUNDS, { command: ['convergence', 'validate'] });

  // 5. The report writer, started by the host and recorded; it writes the report, data.json and its sidecar.
  const writer = workers.find((w) => w.id === 'report-writer')!;
  lead.run(adapter, { command: ['worker-state', 'transition'], with: { '--dispatch-kind': 'report-writer' } }, { '<model>': writer.model });
  // A writer reports every finding the final state holds agreed (data.json's findings[], seed rule S17).
  const final = JSON.parse(readFileSync(lead.abs(`${p.run}/state/convergence-final-${suffix}.json`), 'utf8')) as {
    findings: { id: string; status: string }[];
  };
  const report = finalReport(
    p,
    'report-writer',
    final.findings.filter((f) => f.status === 'agreed').map((f) => f.id),
  );
  writeFileSync(lead.abs(`${p.run}/prompts/report-writer-prompt-${suffix}.md`), `# Report writer\n\nWrite the final report of ${p.taskKey}.\n`);
  runNativeWorker(p.root, {
    sidecarPath: lead.abs(`${p.run}/worker-results/report-writer-${suffix}.audit.md`),
    resultPath: lead.abs(`${p.run}/worker-results/report-writer-${suffix}.md`),
    answer: '# Report writer\n\nWrote the final report and its data.json from the converged findings.\n',
  });
  writeReport(lead, report);
  lead.run(adapter, { command: ['worker-state', 'transition'], with: { '--status': 'completed' } }, { '<id>': 'report-writer' });

  // 6. End of the run: finish, audit before the approval gate, then teardown.
  endOfRun(lead, adapter);
}

/** The end every journey shares (okstra-tools.md "End of the run"): finish, run-audit clean, teardown. */
export function endOfRun(lead: Lead, adapter: string): void {
  lead.run(TOOLS, { command: ['team', 'finish'] });
  const audit = lead.run(TOOLS, { command: ['run-audit'] }, {}, [0, 1]);
  expect(audit.json.violations, JSON.stringify(audit.json.violations, null, 2)).toEqual([]);
  expect(audit.code).toBe(0);
  lead.run(adapter, { command: ['team', 'teardown'] }, {}, [0, 1]);
}

/** Values of a native worker's record line, from its `render-prompts` entry (convergence-rounds.md §2.3). */
export function nativeRecordValues(entry: Record<string, string>, kind: string): Record<string, string> {
  return {
    '<worker>': entry.workerId!,
    '<provider>': entry.provider!,
    '<role>': entry.role!,
    '<model>': entry.model!,
    '<sidecar>': entry.auditSidecarPath!,
    '<prompt>': entry.promptPath!,
    '<result>': entry.resultPath!,
    '<kind>': kind,
  };
}

/** A jobs file in the shape external.md shows (`example=jobs-file`), for the given workers. */
export function writeJobsFile(
  lead: Lead,
  rel: string,
  kind: string,
  jobs: ReadonlyArray<JourneyWorker & { prompt: string; result: string; extra?: string[] }>,
): void {
  const shape = JSON.parse(exampleOf('prompts/lead/adapters/external.md', 'jobs-file'));
  const template = shape.jobs[0];
  const doc = {
    ...shape,
    dispatchKind: kind,
    jobs: jobs.map((w) => ({
      ...template,
      workerId: w.id,
      provider: w.provider,
      role: w.role,
      modelExecutionValue: w.model,
      promptPath: w.prompt,
      resultPath: w.result,
      workerResultPath: w.result,
      completionPaths: [w.result, ...(w.extra ?? [])],
    })),
  };
  writeFileSync(lead.abs(rel), JSON.stringify(doc, null, 2) + '\n');
}

/** Write the final report and its data.json where the run keeps them. */
export function writeReport(lead: Lead, report: { body: string; data: string }): void {
  const p = lead.p;
  const dir = lead.abs(`${p.run}/reports`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `final-report-${p.taskType}-${p.seq}.md`), report.body);
  writeFileSync(join(dir, `final-report-${p.taskType}-${p.seq}.data.json`), report.data);
}

export type { JourneyProject };
