import { describe, expect, it } from 'vitest';
import { join, relative, resolve, sep } from 'node:path';
import { formatSeq, isInside, isNormalAbsolute, joinPath, parseArtifactName, resolvePath } from './index.js';

// Pieces paths are made of, the awkward ones included: every dir × names combination is checked against node:path.
const DIRS = [
  '/',
  '/a',
  '/a/b',
  '/a/b/',
  '/a//b',
  '/a/./b',
  '/a/../b',
  '/a/b/..',
  '/a/b/.',
  'a',
  'a/b',
  './a',
  '../a',
  '',
  '.',
  '/ü/ß',
  '/a b/c',
  '/a\\b',
  '/.okstra',
  '/a/...',
];
const NAMES = ['x', 'x.md', '.x', '..x', 'x..', '...', '.', '..', '', 'a/b', '/x', 'x/', 'ü', 'a b', 'a\\b', '-', 'stage-1'];

describe('joinPath (libs/paths fast-join): the same string as path.join', () => {
  it.each(DIRS)('dir %j with every name and pair of names', (dir) => {
    for (const a of NAMES) {
      expect(joinPath(dir, a)).toBe(join(dir, a));
      for (const b of NAMES) expect(joinPath(dir, a, b)).toBe(join(dir, a, b));
    }
    expect(joinPath(dir)).toBe(join(dir));
  });

  it('repeats the answer for a directory it has seen (the normal-dir cache holds no stale verdict)', () => {
    for (let i = 0; i < 600; i++) {
      const dir = `/r/${i % 300}`;
      expect(joinPath(dir, 'x', '..', 'y')).toBe(join(dir, 'x', '..', 'y'));
      expect(joinPath(dir, 'y')).toBe(`${dir}/y`);
    }
  });
});

describe('isNormalAbsolute / resolvePath / isInside', () => {
  it.each(DIRS)('%j', (p) => {
    expect(isNormalAbsolute(p)).toBe(sep === '/' && p === resolve(p));
    expect(resolvePath(p)).toBe(resolve(p));
  });

  it('isInside agrees with the relative() rule on every pair', () => {
    const paths = [...DIRS.filter((d) => d.startsWith('/')), '/ab', '/a/bc', '/a/b/c', '/a/b/c/d'];
    const slow = (root: string, c: string) => {
      const rel = relative(resolve(root), resolve(c));
      return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..');
    };
    for (const root of paths) for (const c of paths) expect([root, c, isInside(root, c)]).toEqual([root, c, slow(root, c)]);
  });
});

describe('memoised pieces give what they gave before', () => {
  it('formatSeq of a number and of a string', () => {
    for (let i = 0; i < 3; i++) {
      expect(formatSeq(1)).toBe('001');
      expect(formatSeq('1')).toBe('001');
      expect(formatSeq('0042')).toBe('042');
      expect(formatSeq(1234)).toBe('1234');
      expect(() => formatSeq('0')).toThrow(/invalid seq/);
    }
  });

  it('parseArtifactName keeps each task type apart', () => {
    expect(parseArtifactName('claude-error-analysis-001.md', 'error-analysis')).toMatchObject({ workerId: 'claude', seq: 1 });
    expect(parseArtifactName('claude-error-analysis-001.md', 'implementation')).toBeNull();
    expect(parseArtifactName('run-manifest-implementation-002.json', 'implementation')).toMatchObject({ kind: 'run-manifest', seq: 2 });
    expect(parseArtifactName('run-manifest-implementation-002.json', 'error-analysis')).toBeNull();
    expect(parseArtifactName('a.b-x.y-003.md', 'x.y')).toMatchObject({ workerId: 'a.b', seq: 3 });
  });
});
