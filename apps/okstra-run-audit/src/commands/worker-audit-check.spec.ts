import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EA, makeCleanProject, type Project } from '@okstra/audit-rules/test-support';
import { WorkerAuditCheckReport } from '@okstra/schemas/audit';
import { runBin, UMBRELLA } from '../test-support/bin.js';
import { makeSpecial } from '../test-support/special.js';

let project: Project;
afterEach(() => project?.cleanup());

const args = (p: Project, ...extra: string[]) => [
  'worker-audit-check',
  '--run-dir',
  join(p.root, EA.dir),
  '--task-type',
  'error-analysis',
  '--seq',
  '001',
  ...extra,
];

describe('okstra worker-audit-check (real bin)', () => {
  it('passes a clean run: exit 0 and {ok: true, failures: []}', () => {
    project = makeCleanProject();
    const r = runBin(args(project));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, failures: [] });
    // A project with no file outside .okstra/ has nothing to check citations against: unchecked, never a pass.
    expect(out.citations.map((c: { worker: string; status: string }) => `${c.worker}:${c.status}`)).toEqual(['claude:unchecked', 'codex:unchecked']);
  });

  it('failures: exit 2, every failure with worker, rule and project-relative file', () => {
    project = makeCleanProject();
    project.write(EA.result('claude'), '# F\nsee `src/queue.ts:42` and `src/unlisted.ts:9`\n');
    project.remove(EA.sidecar('codex'));
    const r = runBin(args(project), { bin: UMBRELLA });
    expect(r.code).toBe(2);
    expect(WorkerAuditCheckReport.safeParse(JSON.parse(r.stdout)).success).toBe(true);
    expect({ ...JSON.parse(r.stdout), citations: undefined }).toEqual({
      ok: false,
      failures: [
        {
          worker: 'claude',
          rule: 'evidence-row-missing',
          file: EA.sidecar('claude'),
          citation: 'src/unlisted.ts:9',
          message: 'citation `src/unlisted.ts:9` has no Evidence read row in the audit sidecar',
        },
        { worker: 'codex', rule: 'audit-sidecar-missing', file: EA.sidecar('codex'), message: 'the audit sidecar does not exist' },
      ],
    });
    expect(r.stderr).toBe('okstra worker-audit-check: 2 worker audit failures\n'); // through the umbrella: named as typed
  });

  it('citations against the project: one naming no file, or lines past the end, fails naming it; the rest per worker (cited / exist / match / read)', () => {
    project = makeCleanProject();
    project.write('src/queue.ts', 'export const retries = 3;\nexport function retry() {\n  return retries;\n}\n');
    project.write(
      EA.result('claude'),
      '# F\nsee `src/queue.ts:42` and `./src/queue.ts:2`: `export function retry() {` and `queue.ts:3`: `return 5;` and `src/invented.ts:9`\n',
    );
    project.write(
      EA.sidecar('claude'),
      '## Evidence read\n\n| citation | what |\n|---|---|\n| `src/queue.ts:42` | x |\n| `./src/queue.ts:2` | x |\n| `queue.ts:3` | x |\n| `src/invented.ts:9` | x |\n',
    );
    // The wrapper's evidence file: claude opened src/queue.ts with its own Read tool.
    project.write(
      `${EA.dir}/prompts/claude-prompt-error-analysis-001.evidence.json`,
      JSON.stringify({
        schemaVersion: '1.0',
        workerId: 'claude',
        source: 'claude-stream-json',
        startedAt: '2026-11-28T09:06:00Z',
        entries: [{ path: 'src/queue.ts', how: 'read', tools: ['Read'] }],
        outside: 0,
      }),
    );
    const r = runBin(args(project));
    expect(r.code).toBe(2);
    const out = WorkerAuditCheckReport.parse(JSON.parse(r.stdout));
    expect(out.failures).toEqual([
      {
        worker: 'claude',
        rule: 'citation-out-of-range',
        file: EA.result('claude'),
        citation: 'src/queue.ts:42',
        message: 'citation `src/queue.ts:42`: lines 42-42 are not in src/queue.ts (working tree)',
      },
      {
        worker: 'claude',
        rule: 'citation-not-found',
        file: EA.result('claude'),
        citation: 'src/invented.ts:9',
        message: 'citation `src/invented.ts:9` names no file of the project (working tree)',
      },
    ]);
    expect(out.citations![0]).toEqual({
      worker: 'claude',
      status: 'checked',
      cited: 4,
      exist: 3,
      inRange: 2,
      quoted: 2,
      match: 1,
      read: 3,
      holding: 1,
      notHolding: [
        { citation: 'src/queue.ts:42', problem: 'out-of-range' },
        { citation: 'queue.ts:3', problem: 'quote-mismatch' },
        { citation: 'src/invented.ts:9', problem: 'missing' },
      ],
      notRead: [],
    });
    // codex has no evidence file (a native-session worker, or an older wrapper): was-read is unknown.
    expect(out.citations![1]).toMatchObject({ worker: 'codex', status: 'checked', read: 'unknown' });
  });

  it('a selection that matches no worker result is exit 2 saying what it looked for, not ok', () => {
    project = makeCleanProject();
    const wrongSeq = runBin(args(project).map((a) => (a === '001' ? '007' : a)));
    expect(wrongSeq.code).toBe(2);
    expect(wrongSeq.stdout).toBe('');
    expect(wrongSeq.stderr).toMatch(/no worker result matches: looked for worker-results\/<worker>-error-analysis-007\.md/);
    // a staged task type's type directory is not a run: its results are under stage-<N>/
    project.write('.okstra/tasks/payments/refund-timeout/runs/implementation/stage-1/worker-results/codex-implementation-001.md', '# r\n');
    const typeDir = runBin([
      'worker-audit-check',
      '--run-dir',
      join(project.root, '.okstra/tasks/payments/refund-timeout/runs/implementation'),
      '--task-type',
      'implementation',
      '--seq',
      '001',
    ]);
    expect(typeDir.code).toBe(2);
    expect(typeDir.stderr).toMatch(/no worker result matches: looked for worker-results\/<worker>-implementation-001\.md.*pass --run-dir <run-dir>\/stage-1/);
  });

  it('mid-run: host:port spans need no ledger row, path:line:col and Makefile:12 do (the rule run-audit applies post-run)', () => {
    project = makeCleanProject();
    project.write(
      EA.result('claude'),
      '# F\nDB at `db.internal:5432`, API on `127.0.0.1:8080`, UI on `localhost:3000`; see `src/a.ts:9:1`, `Makefile:12`, `schema.sql:5432`.\n',
    );
    const r = runBin(args(project, '--worker', 'claude'));
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).failures.map((f: { citation: string }) => f.citation)).toEqual(['src/a.ts:9:1', 'Makefile:12', 'schema.sql:5432']);
  });

  it('--worker scopes the check to the role that just returned', () => {
    project = makeCleanProject();
    project.remove(EA.sidecar('codex'));
    expect(runBin(args(project, '--worker', 'claude')).code).toBe(0);
    expect(JSON.parse(runBin(args(project, '--worker', 'codex')).stdout).failures.map((f: { rule: string }) => f.rule)).toEqual(['audit-sidecar-missing']);
  });

  it('agrees with run-audit invariant 13 on the same run (one rule, one home)', () => {
    project = makeCleanProject();
    project.write(EA.result('codex'), '## 0. Reading Confirmation\n\nI read the brief.\n');
    const check = JSON.parse(runBin(args(project)).stdout).failures;
    const audit = JSON.parse(runBin(['--project-root', project.root, '--json']).stdout).violations;
    expect(check.map((f: { worker: string; rule: string }) => `worker '${f.worker}': ${f.rule}`)).toEqual(
      audit.map((v: { message: string }) => v.message.split(':').slice(0, 2).join(':')),
    );
  });

  it('a directory that is not <task-root>/runs/<task-type>[/stage-<N>] is exit 2 "not a run directory"', () => {
    project = makeCleanProject();
    const taskDir = join(project.root, '.okstra/tasks/payments/refund-timeout');
    for (const dir of ['/tmp', '', taskDir, join(project.root, EA.dir, 'manifests')]) {
      const r = runBin(['worker-audit-check', '--run-dir', dir, '--task-type', 'error-analysis', '--seq', '001'], { cwd: project.root });
      expect(r.code, dir).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, dir).toMatch(/not a run directory/);
    }
  });

  for (const [name, rel, kind] of [
    ['result FIFO', EA.result('claude'), 'fifo'],
    ['result link to /dev/zero', EA.result('claude'), 'zero'],
    ['sidecar FIFO', EA.sidecar('codex'), 'fifo'],
    ['sidecar link to /dev/zero', EA.sidecar('codex'), 'zero'],
    ['prompt FIFO', EA.prompt('codex'), 'fifo'],
  ] as const) {
    it(`a worker ${name} is exit 2 naming it, never a hang`, () => {
      project = makeCleanProject();
      makeSpecial(project, rel, kind);
      const r = runBin(args(project));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(rel.split('/').pop()!);
      expect(r.stderr).toMatch(/is not a regular file/);
    });
  }

  it('bad input: exit 2 with one line, nothing on stdout', () => {
    project = makeCleanProject();
    const cases = [
      ['worker-audit-check', '--run-dir', join(project.root, 'missing'), '--task-type', 'error-analysis', '--seq', '001'],
      args(project).map((a) => (a === '001' ? '1' : a)),
      args(project).map((a) => (a === 'error-analysis' ? 'implementation' : a)),
      args(project, '--worker', '../x'),
      ['worker-audit-check', '--task-type', 'error-analysis', '--seq', '001'],
    ];
    for (const c of cases) {
      const r = runBin(c);
      expect(r.code, c.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
