import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexDirs, runArtifactDirs } from '../files.js';
import { EA, makeCleanProject, type Project } from '../test-support/fixtures.js';
import { checkWorkerResults } from './rules.js';

let project: Project;
afterEach(() => project?.cleanup());

async function check(p: Project, worker?: string) {
  const runDir = join(p.root, EA.dir);
  const failures = await checkWorkerResults({ runDir, taskType: 'error-analysis', seq: '001', worker }, await indexDirs(runArtifactDirs(runDir)));
  return failures.map((f) => ({ ...f, file: f.file.slice(p.root.length + 1) }));
}

describe('checkWorkerResults', () => {
  it('passes the clean run (all workers, or one)', async () => {
    project = makeCleanProject();
    expect(await check(project)).toEqual([]);
    expect(await check(project, 'claude')).toEqual([]);
  });

  it('reports each rule with worker, file and citation', async () => {
    project = makeCleanProject();
    project.write(EA.result('claude'), '## 0. Reading Confirmation\nread `src/queue.ts:42` and `src/new.ts:7`\n');
    project.remove(EA.sidecar('codex'));
    expect(await check(project)).toEqual([
      {
        worker: 'claude',
        rule: 'reading-confirmation-heading',
        file: EA.result('claude'),
        message: 'the result carries a "## 0. Reading Confirmation" heading',
      },
      {
        worker: 'claude',
        rule: 'evidence-row-missing',
        file: EA.sidecar('claude'),
        citation: 'src/new.ts:7',
        message: 'citation `src/new.ts:7` has no Evidence read row in the audit sidecar',
      },
      { worker: 'codex', rule: 'audit-sidecar-missing', file: EA.sidecar('codex'), message: 'the audit sidecar does not exist' },
    ]);
  });

  it('--worker scopes to one worker; its missing result is a failure', async () => {
    project = makeCleanProject();
    project.remove(EA.sidecar('codex'));
    expect(await check(project, 'claude')).toEqual([]);
    expect((await check(project, 'gemini')).map((f) => f.rule)).toEqual(['result-missing']);
  });

  it('without the marker in the prompt, citations need no rows; a missing sidecar fails every citation', async () => {
    project = makeCleanProject();
    project.write(EA.result('codex'), 'see `src/z.ts:1`\n');
    expect(await check(project, 'codex')).toEqual([]);
    project.remove(EA.sidecar('claude'));
    expect((await check(project, 'claude')).map((f) => f.rule)).toEqual(['audit-sidecar-missing', 'evidence-row-missing', 'evidence-row-missing']);
  });

  it('ignores results of other seqs and the sidecars themselves', async () => {
    project = makeCleanProject();
    project.write(`${EA.dir}/worker-results/gemini-error-analysis-002.md`, '## 0. Reading Confirmation\n');
    expect(await check(project)).toEqual([]);
  });
});

describe('round responses are not worker results', () => {
  it('skips <worker>-reverify-r<N> and <worker>-plan-verify responses', async () => {
    project = makeCleanProject();
    project.write(`${EA.dir}/worker-results/claude-reverify-r1-error-analysis-001.md`, '### F-1\n**Verdict**: SURVIVES\n');
    project.write(`${EA.dir}/worker-results/codex-plan-verify-error-analysis-001.md`, '### P-Opt-1\n');
    project.write(`${EA.dir}/worker-results/claude-reverify-error-analysis-001.md`, 'no round number: a worker id\n');
    expect((await check(project)).map((f) => `${f.worker}:${f.rule}`)).toEqual(['claude-reverify:audit-sidecar-missing']);
  });
});
