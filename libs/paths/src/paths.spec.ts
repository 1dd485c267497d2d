import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  auditSidecarPath,
  carryPath,
  finalReportDataPath,
  formatSeq,
  formatTaskKey,
  parseArtifactName,
  parseRunDir,
  parseSeq,
  parseTaskKey,
  projectRootOf,
  promptPath,
  resolveInsideRoot,
  repairJobsPath,
  repairPromptPath,
  reverifyJobsPath,
  runDir,
  runManifestPath,
  taskRoot,
  teamStatePath,
  userConfigPath,
  userErrorIssuePlanPath,
  userProvidersDir,
  workerResultPath,
  wrapperLogPath,
  wrapperStatusPath,
  answerRecordPath,
  answerSchemaPath,
} from './index.js';

const root = '/p';
const task = taskRoot(root, { taskGroup: 'payments', taskId: 'refund-timeout' });
const run = { taskType: 'implementation-planning', seq: 1 };

describe('task keys and seqs', () => {
  it('round-trips a task key', () => {
    expect(parseTaskKey('sample:payments:refund-timeout')).toEqual({ projectId: 'sample', taskGroup: 'payments', taskId: 'refund-timeout' });
    expect(formatTaskKey({ projectId: 'sample', taskGroup: 'payments', taskId: 'refund-timeout' })).toBe('sample:payments:refund-timeout');
  });
  it.each(['a:b', 'a:b:c:d', 'a:..:c', 'a:b/c:d', 'a::c', 'a:b c:d', 'a:b:.', 'a:b\\c:d', 'a:b\u0000:c', 'a:b\u200b\u0085:c', 'a:b\u3000c:d', 'a:b\uff0fc:d'])(
    'refuses task key %j',
    (key) => {
      expect(() => parseTaskKey(key)).toThrow(/invalid/);
    },
  );
  it.each(['sample:결제:환불-타임아웃', 'sample:ペイメント:返金_タイムアウト', 'proj:café:naïve.v2', 'p:groupe:e\u0301te', 'p:g:١٢٣'])(
    "takes the user's own words as a task key: %s (Unicode letters, marks, digits)",
    (key) => {
      const parsed = parseTaskKey(key);
      expect(formatTaskKey(parsed)).toBe(key);
      expect(taskRoot('/p', parsed)).toBe(`/p/.okstra/tasks/${parsed.taskGroup}/${parsed.taskId}`);
    },
  );
  it('a worker id is one segment of the same class: Unicode letters yes, separators and `..` no', () => {
    const run = { taskType: 'error-analysis', seq: 1 };
    expect(workerResultPath('/p/r', '리뷰어-クロード_é', run)).toBe('/p/r/worker-results/리뷰어-クロード_é-error-analysis-001.md');
    for (const bad of ['a b', 'a/b', '..', 'a:b', 'a\u0000', '$(x)', '#(x)'])
      expect(() => workerResultPath('/p/r', bad, run), bad).toThrow(/invalid worker id/);
  });
  it('zero-pads seqs', () => {
    expect(formatSeq(1)).toBe('001');
    expect(formatSeq('42')).toBe('042');
    expect(formatSeq(1234)).toBe('1234');
    expect(parseSeq('007')).toBe(7);
    expect(() => formatSeq(0)).toThrow(/invalid seq/);
    expect(() => parseSeq('7')).toThrow(/invalid seq/);
  });
});

describe('layout (docs/contracts.md §4)', () => {
  const dir = runDir(task, { taskType: 'implementation-planning' });
  it('builds every fixed name', () => {
    expect(dir).toBe('/p/.okstra/tasks/payments/refund-timeout/runs/implementation-planning');
    expect(runDir(task, { taskType: 'implementation', stage: 2 })).toBe('/p/.okstra/tasks/payments/refund-timeout/runs/implementation/stage-2');
    expect(runManifestPath(dir, run)).toBe(join(dir, 'manifests/run-manifest-implementation-planning-001.json'));
    expect(teamStatePath(dir, run)).toBe(join(dir, 'state/team-state-implementation-planning-001.json'));
    const prompt = promptPath(dir, 'report-writer', run);
    expect(prompt).toBe(join(dir, 'prompts/report-writer-prompt-implementation-planning-001.md'));
    expect(wrapperLogPath(prompt)).toBe(join(dir, 'prompts/report-writer-prompt-implementation-planning-001.log'));
    expect(wrapperStatusPath(prompt)).toBe(join(dir, 'prompts/report-writer-prompt-implementation-planning-001.status.json'));
    expect(workerResultPath(dir, 'codex', run)).toBe(join(dir, 'worker-results/codex-implementation-planning-001.md'));
    expect(answerSchemaPath(prompt)).toBe(join(dir, 'prompts/report-writer-prompt-implementation-planning-001.answer-schema.json'));
    expect(answerRecordPath(join(dir, 'worker-results/codex-plan-verify-implementation-planning-001.md'))).toBe(
      join(dir, 'worker-results/codex-plan-verify-implementation-planning-001.answer.json'),
    );
    expect(auditSidecarPath(dir, 'codex', run)).toBe(join(dir, 'worker-results/codex-implementation-planning-001.audit.md'));
    expect(finalReportDataPath(dir, run)).toBe(join(dir, 'reports/final-report-implementation-planning-001.data.json'));
    expect(reverifyJobsPath(dir, 2, run)).toBe(join(dir, 'state/reverify-jobs-r2-implementation-planning-001.json'));
    expect(repairPromptPath(dir, 'codex', 'reverify-r2', run)).toBe(join(dir, 'prompts/codex-prompt-repair-reverify-r2-implementation-planning-001.md'));
    expect(repairJobsPath(dir, 'reverify-r2', run)).toBe(join(dir, 'state/repair-jobs-reverify-r2-implementation-planning-001.json'));
    expect(() => repairJobsPath(dir, '../x', run)).toThrow(/invalid dispatch kind/);
    expect(carryPath(task, 3)).toBe(join(task, 'runs/implementation/carry/stage-3.json'));
  });
  it('builds the user-home paths apart from any project', () => {
    expect(userConfigPath('/home/u')).toBe('/home/u/.okstra/config.json');
    expect(userProvidersDir('/home/u')).toBe('/home/u/.okstra/adapters/providers');
    expect(userErrorIssuePlanPath('/home/u')).toBe('/home/u/.okstra/error-issue/plan.json');
  });
  it('refuses ids that are not one safe segment', () => {
    expect(() => promptPath(dir, '../x', run)).toThrow(/invalid worker id/);
    expect(() => taskRoot(root, { taskGroup: 'a/b', taskId: 'c' })).toThrow(/invalid task-group/);
  });
});

describe('parsing names', () => {
  it('parses artifact names given the task type', () => {
    expect(parseArtifactName('report-writer-implementation-planning-001.audit.md', 'implementation-planning')).toEqual({
      kind: 'audit-sidecar',
      taskType: 'implementation-planning',
      seq: 1,
      workerId: 'report-writer',
    });
    expect(parseArtifactName('codex-prompt-error-analysis-012.status.json', 'error-analysis')).toEqual({
      kind: 'wrapper-status',
      taskType: 'error-analysis',
      seq: 12,
      workerId: 'codex',
    });
    expect(parseArtifactName('run-manifest-implementation-003.json', 'implementation')).toEqual({ kind: 'run-manifest', taskType: 'implementation', seq: 3 });
    expect(parseArtifactName('final-report-error-analysis-001.data.json', 'error-analysis')?.kind).toBe('final-report-data');
    expect(parseArtifactName('notes.md', 'error-analysis')).toBeNull();
    expect(parseArtifactName('run-manifest-error-analysis-001.json', 'implementation')).toBeNull();
  });
  it('parses run directories with and without a stage', () => {
    expect(parseRunDir('/p/.okstra/tasks/g/t/runs/implementation/stage-4')).toEqual({ taskRoot: '/p/.okstra/tasks/g/t', taskType: 'implementation', stage: 4 });
    expect(parseRunDir('/p/.okstra/tasks/g/t/runs/error-analysis')).toEqual({ taskRoot: '/p/.okstra/tasks/g/t', taskType: 'error-analysis' });
    expect(parseRunDir('/p/somewhere')).toBeNull();
  });
});

describe('containment', () => {
  it('resolves relative paths inside the root and refuses escapes', () => {
    expect(resolveInsideRoot('/p', '.okstra/x.json')).toBe('/p/.okstra/x.json');
    expect(resolveInsideRoot('/p', '/p/a/b')).toBe('/p/a/b');
    expect(() => resolveInsideRoot('/p', '../etc/passwd', 'jobs[0].promptPath')).toThrow("'../etc/passwd' escapes the project root /p");
    expect(() => resolveInsideRoot('/p', '/pother/x')).toThrow(/escapes/);
  });
  it('finds the project root of a path inside .okstra', () => {
    expect(projectRootOf('/home/u/proj/.okstra/tasks/g/t/state/x.json')).toBe('/home/u/proj');
    expect(projectRootOf('/home/u/proj/file')).toBeNull();
  });
});
