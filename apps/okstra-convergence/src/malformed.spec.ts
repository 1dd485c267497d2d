import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, openSync, closeSync, ftruncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cli, exampleDir, seedAndPlan, snapshot, tempDir, removeTempDirs, workerFlags } from './test-support/bin.js';

afterAll(removeTempDirs);

/**
 * Every sub-command, fed each malformed input in turn: exit 2, exactly one line
 * on stderr (no stack trace), and no file created or changed anywhere in the dir.
 */

let template: string;
beforeAll(() => {
  template = makeTemplate();
});

/** A fresh copy of a dir with a valid, seeded state, a round-1 plan and results, ready for every command. */
function fixture(): string {
  const dir = tempDir('okstra-conv-bad-');
  cpSync(template, dir, { recursive: true });
  return dir;
}

function makeTemplate(): string {
  const kinds = ['groups', 'round-results', 'coverage-batch'];
  const dir = exampleDir(Object.fromEntries(kinds.map((kind) => [`${kind}.json`, kind])), 'okstra-conv-bad-');
  seedAndPlan(dir);
  writeFileSync(join(dir, 'claude.md'), '### F-002\n**Verdict**: REFUTED\n**Basis**: lock.\n');
  writeFileSync(join(dir, 'codex.md'), '### F-001\nVerdict: SURVIVES\nBasis: yes\n\n### F-004\nVerdict: SURVIVES\nBasis: yes\n');
  return dir;
}

/** Malformed JSON documents: name → writer of `bad` in `dir`. */
const BAD_JSON: Record<string, (path: string) => void> = {
  'truncated JSON': (p) => writeFileSync(p, '{"schemaVersion": "1.0", "kind": "round-pl'),
  'wrong types': (p) =>
    writeFileSync(
      p,
      JSON.stringify({ schemaVersion: '1.0', kind: undefined, round: 'one', mode: 7, roundLimit: [], roster: 'x', findings: {}, workers: 3, batches: 'x' }),
    ),
  'unknown schemaVersion': (p) => writeFileSync(p, JSON.stringify({ schemaVersion: '9.9' })),
  'empty file': (p) => writeFileSync(p, ''),
  'a directory': (p) => mkdirSync(p),
  'non-UTF-8 bytes': (p) => writeFileSync(p, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
  'a JSON array': (p) => writeFileSync(p, '[1,2,3]'),
};

/** Each sub-command with the argument that gets the bad file (`BAD`). */
const COMMANDS: Array<[string, string[]]> = [
  ['seed --groups', ['seed', '--groups', 'BAD', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig']],
  ['seed (bad working state)', ['seed', '--groups', 'groups.json', '--work-state', 'BAD', '--final-state', 'final.json', '--migration-dir', 'mig']],
  ['plan-round --work-state', ['plan-round', '--work-state', 'BAD', '--plan', 'out-plan.json']],
  [
    'collect-results --plan',
    [
      'collect-results',
      '--plan',
      'BAD',
      '--mode',
      'adversarial',
      ...workerFlags({ claude: 'claude.md', codex: 'codex.md' }, { claude: 'completed:1', codex: 'completed:1' }),
      '--output',
      'out.json',
    ],
  ],
  ['apply-round --work-state', ['apply-round', '--work-state', 'BAD', '--plan', 'plan.json', '--results', 'round-results.json']],
  ['apply-round --plan', ['apply-round', '--work-state', 'work.json', '--plan', 'BAD', '--results', 'round-results.json']],
  ['apply-round --results', ['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'BAD']],
  ['apply-critic-gaps --work-state', ['apply-critic-gaps', '--work-state', 'BAD', '--results', 'coverage-batch.json']],
  ['apply-critic-gaps --results', ['apply-critic-gaps', '--work-state', 'work.json', '--results', 'BAD']],
  ['finalize --work-state', ['finalize', '--work-state', 'BAD', '--output', 'out-final.json']],
  ['validate --kind working', ['validate', '--state', 'BAD', '--kind', 'working']],
  ['validate --kind final', ['validate', '--state', 'BAD', '--kind', 'final']],
];

function expectRefused(dir: string, args: string[]) {
  const before = snapshot(dir);
  const r = cli(args, dir);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^okstra-convergence: /);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(snapshot(dir)).toEqual(before);
}

describe('malformed JSON inputs: exit 2, one line, nothing written', () => {
  for (const [name, args] of COMMANDS) {
    it(name, () => {
      const dir = fixture();
      for (const [i, [, write]] of Object.entries(BAD_JSON).entries()) {
        const bad = `bad-${i}.json`;
        write(join(dir, bad));
        expectRefused(
          dir,
          args.map((a) => (a === 'BAD' ? bad : a)),
        );
      }
    });
  }
});

describe('malformed responses and flags for collect-results', () => {
  const collect = (result: string, extra: string[] = []) => [
    'collect-results',
    '--plan',
    'plan.json',
    '--mode',
    'adversarial',
    ...workerFlags({ claude: result, codex: 'codex.md' }, { claude: 'completed:1', codex: 'completed:1' }),
    '--output',
    'out.json',
    ...extra,
  ];

  it('refuses an empty, directory, non-UTF-8 or missing response', () => {
    const dir = fixture();
    writeFileSync(join(dir, 'empty.md'), '');
    mkdirSync(join(dir, 'dir.md'));
    writeFileSync(join(dir, 'latin1.md'), Buffer.from('### F-002\nVerdict: REFUT\xc9\n', 'latin1'));
    for (const f of ['empty.md', 'dir.md', 'latin1.md', 'missing.md']) expectRefused(dir, collect(f));
  });

  it('refuses a 50 MB response', () => {
    const dir = fixture();
    const fd = openSync(join(dir, 'huge.md'), 'w');
    writeSync(fd, '### F-002\n**Verdict**: REFUTED\n**Basis**: lock.\n');
    ftruncateSync(fd, 50 * 1024 * 1024);
    closeSync(fd);
    expectRefused(dir, collect('huge.md'));
  });

  it('refuses malformed --dispatch and --result flags and a wrong --mode', () => {
    const dir = fixture();
    // each: one argument of a valid call replaced by a malformed one
    const swaps: Array<[string, string]> = [
      ['claude=completed:1', 'claude=finished:1'],
      ['claude=completed:1', 'claude=completed:1.5s'],
      ['claude=claude.md', 'claude.md'],
      ['adversarial', 'collaborative'],
      ['adversarial', 'hostile'],
    ];
    for (const [from, to] of swaps)
      expectRefused(
        dir,
        collect('claude.md').map((a) => (a === from ? to : a)),
      );
  });
});

describe('usage errors', () => {
  it('refuses unknown kinds, missing flags and unknown sub-commands with exit 2', () => {
    const dir = fixture();
    expectRefused(dir, ['example', '--kind', 'final-state']);
    expectRefused(dir, ['seed', '--groups', 'groups.json']);
    expectRefused(dir, ['apply-round', '--work-state', 'work.json', '--plan', 'plan.json']);
    expectRefused(dir, ['converge']);
  });

  it('refuses a document of the wrong kind, naming both kinds', () => {
    const dir = fixture();
    const r = cli(['apply-round', '--work-state', 'work.json', '--plan', 'round-results.json', '--results', 'plan.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/round-results\.json: kind: got a round-results document, but --plan needs a round-plan document/);
  });
});
