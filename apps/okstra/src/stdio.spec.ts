// `-` as a path argument (docs/conventions.md "Input and output files"):
// document inputs read stdin, new output documents go to stdout (and no file
// named `-` appears), a state file given as `-` is exit 2 with one line saying
// so, and every command that prints JSON accepts --json. Through the real
// umbrella bin on a temp copy of examples/sample-project.
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '@okstra/core/test-support';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const sample = new URL('../../../examples/sample-project', import.meta.url).pathname;
const base = mkdtempSync(join(tmpdir(), 'okstra-stdio-'));
const root = join(base, 'sample-project');
cpSync(sample, root, { recursive: true });
afterAll(() => rmSync(base, { recursive: true, force: true }));
const EA = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/state';
const IP = '.okstra/tasks/payments/refund-timeout/runs/implementation-planning';
const DATA = `${IP}/reports/final-report-implementation-planning-001.data.json`;

function okstra(args: string[], input?: string) {
  const { code, stdout, stderr } = runBin(bin, args, { cwd: root, input, env: { ...process.env, HOME: base } });
  return { code, stdout, stderr };
}

describe("'-' for documents", () => {
  it('plan-items extract --data - --output -: stdin in, the items document out, byte-identical to the file output', () => {
    const r = okstra(['plan-items', 'extract', '--data', '-', '--output', '-'], readFileSync(join(root, DATA), 'utf8'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(root, `${IP}/state/plan-items-implementation-planning-001.json`), 'utf8'));
    expect(existsSync(join(root, '-'))).toBe(false);
  });

  it('convergence seed --groups - reads stdin; plan-round --plan - prints the plan and writes no file', () => {
    const groups = readFileSync(join(root, `${EA}/convergence-groups-error-analysis-001.json`), 'utf8');
    const seeded = okstra(
      ['convergence', 'seed', '--groups', '-', '--work-state', `${EA}/w.json`, '--final-state', `${EA}/f.json`, '--migration-dir', `${EA}/m`, '--json'],
      groups,
    );
    expect(seeded.code, seeded.stderr).toBe(0);
    const plan = okstra(['convergence', 'plan-round', '--work-state', `${EA}/w.json`, '--plan', '-', '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ kind: 'round-plan', round: 1 });
    expect(existsSync(join(root, '-'))).toBe(false);
  });

  it('error-issue plan --output - prints the plan and writes no plan file', () => {
    const r = okstra(['error-issue', 'plan', '--project-root', '.', '--output', '-', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ schemaVersion: '1.0' });
    expect(existsSync(join(base, '.okstra/error-issue/plan.json'))).toBe(false);
  });

  it.each([
    ['convergence plan-round', ['convergence', 'plan-round', '--work-state', '-', '--plan', 'p.json']],
    ['convergence validate', ['convergence', 'validate', '--state', '-', '--kind', 'working']],
    ['plan-items apply-verdicts', ['plan-items', 'apply-verdicts', '--data', '-', '--verdicts', 'v.json']],
    ['worker-liveness', ['worker-liveness', '--team-state', '-', '--worker', 'claude']],
    ['worker-state transition', ['worker-state', 'transition', '--team-state', '-', '--worker', 'claude', '--status', 'completed']],
  ])('a state file given as - (%s) is exit 2 with one line saying so', (_name, args) => {
    const r = okstra(args, '{}');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra [a-z-]+: [^\n]*'-' (\(stdin\/stdout\) is accepted only for a document|means stdin only for a document)[^\n]*\n$/);
    expect(existsSync(join(root, '-'))).toBe(false);
  });

  it('/dev/stdin stays refused (only - itself means stdin)', () => {
    const r = okstra(['plan-items', 'extract', '--data', '/dev/stdin', '--output', 'items.json'], '{}');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra plan-items: \/dev\/stdin: /);
  });
});
