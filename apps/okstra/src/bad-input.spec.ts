// The bad-input contract of every tool (docs/contracts.md §3), through the
// umbrella and the real bins: a missing file, a directory where a file is
// expected, an empty file, truncated JSON and an unknown schemaVersion each
// exit 2 with one line on stderr naming the file, print no data on stdout
// (beyond a validator's `ok: false` report), and write nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'okstra-bad-input-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project root whose `.okstra/tasks/g/t/runs/error-analysis` holds the bad inputs and an empty output dir. */
const runDir = join(root, '.okstra/tasks/g/t/runs/error-analysis');
const out = join(runDir, 'out');
mkdirSync(out, { recursive: true });

const BAD: Record<string, (p: string) => void> = {
  missing: () => undefined,
  directory: (p) => mkdirSync(p),
  empty: (p) => writeFileSync(p, ''),
  truncated: (p) => writeFileSync(p, '{"schemaVersion": "1.0", "workers": [{"workerId": "cla'),
  'unknown schemaVersion': (p) => writeFileSync(p, '{"schemaVersion": "9.9"}\n'),
  // A FIFO would block a reader forever: refused before it is opened.
  FIFO: (p) => execFileSync('mkfifo', [p]),
};

/** Each command with the bad file in the position of its JSON input. */
const COMMANDS: Array<[string, (bad: string) => string[]]> = [
  [
    'convergence seed',
    (b) => ['convergence', 'seed', '--groups', b, '--work-state', join(out, 'w.json'), '--final-state', join(out, 'f.json'), '--migration-dir', join(out, 'm')],
  ],
  ['convergence plan-round', (b) => ['convergence', 'plan-round', '--work-state', b, '--plan', join(out, 'p.json')]],
  ['convergence validate', (b) => ['convergence', 'validate', '--state', b, '--kind', 'working']],
  ['plan-items extract', (b) => ['plan-items', 'extract', '--data', b, '--output', join(out, 'items.json')]],
  ['incremental-scope --preview', (b) => ['incremental-scope', '--preview', '--prev-data', b, '--answered-clarifications', 'C-001']],
  ['worker-liveness', (b) => ['worker-liveness', '--team-state', b, '--worker', 'claude', '--stall-confirm', '0']],
  ['worker-state transition', (b) => ['worker-state', 'transition', '--team-state', b, '--worker', 'claude', '--status', 'completed']],
  ['team dispatch', (b) => ['team', 'dispatch', '--project-root', root, '--run-manifest', b, '--dry-run']],
  ['error-issue submit', (b) => ['error-issue', 'submit', '--plan', b, '--approve', 'all']],
];

let n = 0;
describe.each(COMMANDS)('okstra %s', (_name, argv) => {
  it.each(Object.keys(BAD))('refuses a %s input file: exit 2, one line naming it, nothing written', (kind) => {
    const bad = join(runDir, `bad-${n++}.json`);
    BAD[kind]!(bad);
    const r = spawnSync(process.execPath, [bin, ...argv(bad)], {
      encoding: 'utf8',
      cwd: root,
      env: { ...process.env, HOME: root, PATH: '/usr/bin:/bin' },
      timeout: 20_000,
    });
    expect(r.status, r.stderr).toBe(2);
    // A validator may also print its report (`ok: false`) as data on stdout.
    if (r.stdout !== '') expect(JSON.parse(r.stdout)).toMatchObject({ ok: false });
    expect(r.stderr).toMatch(/^[^\n]+\n$/);
    expect(r.stderr).toContain(bad.split('/').pop());
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(out)).toEqual([]);
  });
});

/** Output flags that name an input: refused before anything is read or written. */
const SAME_FILE: Array<[string, (input: string) => string[], string]> = [
  ['convergence plan-round', (f) => ['convergence', 'plan-round', '--work-state', f, '--plan', f], '--plan is the same file as --work-state'],
  ['convergence finalize', (f) => ['convergence', 'finalize', '--work-state', f, '--output', f], '--output is the same file as --work-state'],
  [
    'convergence seed',
    (f) => ['convergence', 'seed', '--groups', f, '--work-state', f, '--final-state', join(out, 'f.json'), '--migration-dir', join(out, 'm')],
    '--work-state is the same file as --groups',
  ],
  [
    'convergence collect-results',
    (f) => ['convergence', 'collect-results', '--plan', join(runDir, 'p.json'), '--mode', 'adversarial', '--result', `claude=${f}`, '--output', f],
    '--output is the same file as --result claude',
  ],
  ['plan-items extract', (f) => ['plan-items', 'extract', '--data', f, '--output', f], '--output is the same file as --data'],
  [
    'plan-items collect-verdicts',
    (f) => ['plan-items', 'collect-verdicts', '--result', `codex=${f}`, '--items', join(runDir, 'i.json'), '--output', f],
    '--output is the same file as --result',
  ],
];

describe.each(SAME_FILE)('okstra %s', (_name, argv, message) => {
  it('refuses an output path that is one of its inputs, and leaves the input as it was', () => {
    const input = join(runDir, `input-${n++}.json`);
    writeFileSync(input, '{"keep": true}\n');
    const r = spawnSync(process.execPath, [bin, ...argv(input)], { encoding: 'utf8', cwd: root });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe(`${r.stderr.split(':')[0]}: ${input}: ${message}; refusing to overwrite an input\n`);
    expect(readFileSync(input, 'utf8')).toBe('{"keep": true}\n');
  });
});

describe('an output path that cannot be written', () => {
  const data = new URL(
    '../../../examples/sample-project/.okstra/tasks/payments/refund-timeout/runs/implementation-planning/reports/final-report-implementation-planning-001.data.json',
    import.meta.url,
  ).pathname;
  it.each([
    ['a directory', () => out, 'is a directory, expected a file to write'],
    [
      'under a regular file',
      () => {
        const f = join(runDir, 'a-file');
        writeFileSync(f, 'x');
        return join(f, 'items.json');
      },
      'cannot create it: a parent path is a file, not a directory',
    ],
  ])('%s: exit 2 with one line naming it', (_what, target, message) => {
    const dest = target();
    const r = spawnSync(process.execPath, [bin, 'plan-items', 'extract', '--data', data, '--output', dest], { encoding: 'utf8', cwd: root });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toBe(`okstra plan-items: ${dest}: ${message}\n`);
  });
});
