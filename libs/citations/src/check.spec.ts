import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkerEvidence } from '@okstra/schemas/worker-evidence';
import { checkCitations, citedIn, commitTree, openCitationChecker, projectRelative, quoteMatches, wasRead, workingTree, type CitationReport } from './index.js';

const REFUND = [
  'export const TIMEOUT_MS = 30_000;',
  '',
  'export async function refund(id: string) {',
  '  const res = await fetch(url(id));',
  '  return res.json();',
  '}',
];

/** A project under /tmp with src/refund.ts, src/lib/queue.ts and a run directory, plus a secret outside it. */
function project(): string {
  const base = mkdtempSync(join(tmpdir(), 'okstra-cite-'));
  const root = join(base, 'project');
  mkdirSync(join(root, 'src/lib'), { recursive: true });
  mkdirSync(join(root, '.okstra/tasks'), { recursive: true });
  writeFileSync(join(root, 'src/refund.ts'), REFUND.join('\n') + '\n');
  writeFileSync(join(root, 'src/lib/queue.ts'), 'export const retries = 3;\n');
  writeFileSync(join(base, 'secret.ts'), 'line 1\nline 2\nline 3\n');
  return root;
}

const check = (root: string, md: string, evidence: WorkerEvidence | null = null): CitationReport[] =>
  checkCitations(md, { root, tree: workingTree(root), evidence });
const only = (root: string, md: string, evidence: WorkerEvidence | null = null) => check(root, md, evidence)[0]!;

describe('exists and in range', () => {
  const root = project();
  it('path:line, path:a-b and path:line:col, with or without ./ or the project root, hold', () => {
    for (const c of ['src/refund.ts:4', './src/refund.ts:3-5', 'src/refund.ts:4:9', `${root}/src/refund.ts:1`, 'src/refund.ts:4:3-5:10'])
      expect(only(root, `see \`${c}\``), c).toMatchObject({ file: 'src/refund.ts', exists: true, inRange: true, holds: true, problem: null });
  });
  it('a file that does not exist, and lines past its end, do not', () => {
    expect(only(root, '`src/refunds.ts:4`')).toMatchObject({ exists: false, problem: 'missing', holds: false });
    expect(only(root, '`src/refund.ts:7`')).toMatchObject({ exists: true, inRange: false, problem: 'out-of-range', holds: false });
    expect(only(root, '`src/refund.ts:5-9`')).toMatchObject({ inRange: false, problem: 'out-of-range' });
  });
  it('a bare name resolves to the one file whose path ends in it', () => {
    expect(only(root, '`queue.ts:1`')).toMatchObject({ file: 'src/lib/queue.ts', holds: true });
    expect(only(root, '`lib/queue.ts:1`')).toMatchObject({ file: 'src/lib/queue.ts', holds: true });
    expect(only(root, '`ib/queue.ts:1`')).toMatchObject({ problem: 'missing' });
  });
  it('never follows a citation outside the project: absolute elsewhere, .., a symlink out', () => {
    expect(only(root, `\`${join(root, '..', 'secret.ts')}:1\``)).toMatchObject({ problem: 'outside-project', exists: false });
    expect(only(root, '`../secret.ts:1`')).toMatchObject({ problem: 'outside-project' });
    expect(only(root, '`src/../../secret.ts:1`')).toMatchObject({ problem: 'outside-project' });
    symlinkSync(join(root, '..', 'secret.ts'), join(root, 'src/link.ts'));
    expect(only(root, '`src/link.ts:1`')).toMatchObject({ problem: 'outside-project', exists: false });
    expect(projectRelative(root, '/etc/passwd')).toBeNull();
  });
  it('a directory, a FIFO or a device is not a file', () => {
    execFileSync('mkfifo', [join(root, 'src/pipe.ts')]);
    expect(only(root, '`src/pipe.ts:1`')).toMatchObject({ problem: 'not-a-file' });
    expect(only(root, '`src/lib:1`')).toMatchObject({ problem: 'not-a-file' });
  });
});

describe('quotes: whitespace- and indentation-insensitive, within the window', () => {
  const root = project();
  it('an adjacent code span or the fenced block after the line is the quote', () => {
    expect(citedIn('`src/a.ts:4`: `const x = 1;`')[0]!.quotes).toEqual(['const x = 1;']);
    expect(citedIn('`src/a.ts:4` reads `const x = 1;`')[0]!.quotes).toEqual(['const x = 1;']);
    expect(citedIn('`foo()` in `src/a.ts:4`')[0]!.quotes).toEqual([]);
    expect(citedIn('The fetch in `src/a.ts:4`:\n\n```ts\nconst res = await fetch(url(id));\n```\n')[0]!.quotes).toEqual(['const res = await fetch(url(id));']);
    // A proposal is not a quote, nor a diff; a line with two citations attaches no block.
    expect(citedIn('Fix `src/a.ts:4`:\n```ts\nconst x = 2;\n```\n')[0]!.quotes).toEqual([]);
    expect(citedIn('At `src/a.ts:4`:\n```diff\n-a\n+b\n```\n')[0]!.quotes).toEqual([]);
    expect(citedIn('`src/a.ts:4` and `src/b.ts:5`:\n```\nx\n```\n').map((c) => c.quotes)).toEqual([[], []]);
  });
  it('matches the cited lines however they are indented or spaced', () => {
    expect(only(root, '`src/refund.ts:4`: `const res=await fetch( url(id) );`')).toMatchObject({ quote: 'match', holds: true });
    expect(
      only(root, 'see `src/refund.ts:3-6`:\n```ts\nexport async function refund(id: string) {\n    const res = await fetch(url(id));\n    // ...\n}\n```\n'),
    ).toMatchObject({
      quote: 'match',
    });
    // Line numbers pasted from `nl -ba` are not part of the code.
    expect(only(root, 'in `src/refund.ts:4`:\n```\n  4\tconst res = await fetch(url(id));\n  5\treturn res.json();\n```\n')).toMatchObject({ quote: 'match' });
  });
  it('code that is not within the window of the cited lines does not match', () => {
    const file = Array.from({ length: 40 }, (_, i) => `line_${i + 1}();`);
    expect(quoteMatches('line_10();', file, 10, 10)).toBe(true);
    expect(quoteMatches('line_13();', file, 10, 10)).toBe(true);
    expect(quoteMatches('line_14();', file, 10, 10)).toBe(false);
    expect(quoteMatches('line_6();', file, 10, 10)).toBe(false);
    // A pasted block may start at the cited line.
    expect(quoteMatches('line_10();\nline_11();\nline_12();\nline_13();\nline_14();\nline_15();', file, 10, 10)).toBe(true);
    expect(only(root, '`src/refund.ts:4`: `return res.text();`')).toMatchObject({ quote: 'mismatch', problem: 'quote-mismatch', holds: false, exists: true });
  });
});

describe('was read', () => {
  const root = project();
  const evidence = (entries: WorkerEvidence['entries']): WorkerEvidence => ({
    schemaVersion: '1.0',
    workerId: 'w',
    source: 'claude-stream-json',
    startedAt: '2026-12-01T00:00:00Z',
    entries,
    outside: 0,
  });
  it('read when its tools opened the file, searched when a search covered it, not-read otherwise, unknown without evidence', () => {
    const ev = evidence([
      { path: 'src/refund.ts', how: 'read', tools: ['Read'] },
      { path: 'src/lib', how: 'searched', tools: ['Grep'] },
      { path: 'README.md', how: 'listed', tools: ['Glob'] },
    ]);
    expect(wasRead(ev, 'src/refund.ts')).toBe('read');
    expect(wasRead(ev, 'src/lib/queue.ts')).toBe('searched');
    expect(wasRead(ev, 'README.md')).toBe('not-read');
    expect(wasRead(null, 'src/refund.ts')).toBe('unknown');
    expect(check(root, '`src/refund.ts:1` `queue.ts:1`', evidence([{ path: 'src/refund.ts', how: 'read', tools: ['Read'] }])).map((r) => r.read)).toEqual([
      'read',
      'not-read',
    ]);
  });
});

describe('the tree: at the recorded commit, or the working tree', () => {
  it('reads the commit by argv, not the working tree, and never follows a symlink of the commit', () => {
    const root = project();
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', root, ...args], {
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      });
    git('init', '-q');
    symlinkSync('../../secret.ts', join(root, 'src/out.ts'));
    git('add', '-A');
    git('commit', '-qm', 'one');
    const sha = git('rev-parse', 'HEAD').trim();
    writeFileSync(join(root, 'src/refund.ts'), 'changed\n');
    const tree = commitTree(root, sha);
    const at = (md: string) => checkCitations(md, { root, tree, evidence: null })[0]!;
    expect(at('`src/refund.ts:6`')).toMatchObject({ holds: true });
    expect(only(root, '`src/refund.ts:6`')).toMatchObject({ problem: 'out-of-range' });
    expect(at('`src/out.ts:1`')).toMatchObject({ problem: 'not-a-file' });
    expect(openCitationChecker(root, 'deadbeef')).toMatchObject({ status: 'unchecked' });
    expect(() => commitTree(root, '--output=/tmp/x')).toThrow(/not a commit id/);
  });
  it('a project with nothing outside .okstra/ is unchecked, never a pass or a failure', () => {
    const root = mkdtempSync(join(tmpdir(), 'okstra-cite-empty-'));
    mkdirSync(join(root, '.okstra'));
    expect(openCitationChecker(root)).toMatchObject({ status: 'unchecked', reason: expect.stringMatching(/no file outside \.okstra/) });
  });
});
