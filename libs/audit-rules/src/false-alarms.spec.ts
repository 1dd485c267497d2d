// The false alarms issue #24 item 4 names, each on a legal run that must audit clean.
import { afterEach, describe, expect, it } from 'vitest';
import { runAudit } from './audit-project.js';
import { EA, IMPL, TASK_ROOT_REL, makeCleanProject, type Project } from './test-support/fixtures.js';

let project: Project;
afterEach(() => project?.cleanup());

async function found(p: Project): Promise<string[]> {
  return (await runAudit(p.root)).violations.map((v) => `${v.invariant}: ${v.message}`);
}

describe('legal runs the audit flagged (issue #24 item 4)', () => {
  it('an errors log starting with a UTF-8 BOM still logs the failure on its first line', async () => {
    project = makeCleanProject();
    project.edit(EA.manifest, (m) => {
      m.status = 'failed';
      delete m.reportAuthor;
    });
    project.edit(EA.teamState, (s) => {
      s.workers[2] = { workerId: 'report-writer', provider: 'claude', role: 'report-writer', status: 'pending' };
    });
    project.remove(EA.report);
    project.remove(EA.data);
    project.write(
      `${TASK_ROOT_REL}/errors-2026-11-29.jsonl`,
      '\uFEFF{"taskType":"error-analysis","seq":"001","error":"convergence collect-results exited 2"}\n',
    );
    expect(await found(project)).toEqual([]);
  });

  it('a -gap-vote- response in worker-results is not judged as a worker result', async () => {
    project = makeCleanProject();
    project.write(`${EA.dir}/worker-results/claude-gap-vote-error-analysis-001.md`, '## G-1\n- Vote: AGREE\n- Basis: seen\n');
    expect(await found(project)).toEqual([]);
  });

  it('a report writer that was dispatched and timed out may have a reason naming a session resume (14 d is about skipping it)', async () => {
    project = makeCleanProject();
    project.edit(IMPL.teamState, (s) => {
      s.workers[0].reason = 'timed out twice; the second attempt was after a session resume';
    });
    project.edit(IMPL.manifest, (m) => {
      m.workerDispatches = [
        {
          dispatchKind: 'report-writer',
          workerId: 'report-writer',
          backend: 'tmux-pane',
          paneId: '%4',
          startedAt: '2026-11-29T10:30:00Z',
          tornDownAt: '2026-11-29T10:55:00Z',
        },
      ];
    });
    expect(await found(project)).toEqual([]);
  });

  it('a report writer with id rw-claude and role "Report writer worker" is the report writer', async () => {
    project = makeCleanProject();
    project.edit(IMPL.teamState, (s) => {
      s.workers[0].workerId = 'rw-claude';
      s.workers[0].role = 'Report writer worker';
    });
    const prompt = `${IMPL.dir}/prompts/report-writer-prompt-implementation-001.md`;
    project.write(`${IMPL.dir}/prompts/rw-claude-prompt-implementation-001.md`, project.read(prompt));
    project.remove(prompt);
    expect(await found(project)).toEqual([]);
  });
});
