/**
 * The project's files as a citation is checked against them: the working tree,
 * or the commit the run recorded (read with `git` by argv, never a shell).
 * Nothing outside the project is ever read: an absolute path outside it, a
 * `..` that climbs out, and a symlink (at a commit) or a real path (in the
 * working tree) leading out are `outside`, not followed.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';

/** What a project-relative path names in a tree. */
export type Lookup = { kind: 'file'; lines: string[] } | { kind: 'missing' } | { kind: 'not-a-file' } | { kind: 'outside' };

/** A tree of project files. Paths are project-relative with `/` separators. */
export interface SourceTree {
  /** `working tree` or `commit <sha>`. */
  readonly label: string;
  lookup(rel: string): Lookup;
  /** Every file path (for a bare-name citation's suffix lookup); built once, lazily. */
  files(): readonly string[];
  /** True when the project has any file outside `.okstra/`: with none there is nothing to cite. */
  hasSources(): boolean;
}

/** Files bigger than this are `not-a-file` (a citation into a generated blob is not checked line by line). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Directories a project walk skips: VCS metadata, installed dependencies, okstra's own run records. */
const SKIP_DIRS = new Set(['.git', 'node_modules', '.okstra']);
/** A walk stops after this many files (a suffix lookup past it finds nothing more). */
const MAX_FILES = 200_000;

/**
 * A cited path as a project-relative path: a leading `./` and the project root's absolute
 * prefix are dropped, `a/../b` is normalised; null when it leaves the project (absolute
 * elsewhere, or climbing above the root).
 */
export function projectRelative(root: string, cited: string): string | null {
  let p = cited.replace(/\\/g, '/');
  if (isAbsolute(p)) {
    const candidates = [resolve(root)];
    try {
      candidates.push(realpathSync(root));
    } catch {
      // the root's real path is the same
    }
    const inside = candidates.map((r) => relative(r, resolve(p))).find((rel) => rel !== '' && !rel.startsWith('..') && !isAbsolute(rel));
    if (inside === undefined) return null;
    p = inside.split(sep).join('/');
  }
  const n = posix.normalize(p);
  if (n === '..' || n.startsWith('../') || n === '.' || n === '') return null;
  return n.replace(/^(\.\/)+/, '');
}

const splitLines = (text: string): string[] => {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
};

/** The project's working tree under `root`. */
export function workingTree(root: string): SourceTree {
  const abs = resolve(root);
  let realRoot = abs;
  try {
    realRoot = realpathSync(abs);
  } catch {
    // a missing root has no files: every lookup is missing
  }
  let listed: string[] | null = null;
  return {
    label: 'working tree',
    lookup(rel) {
      let real: string;
      try {
        real = realpathSync(join(abs, rel));
      } catch {
        return { kind: 'missing' };
      }
      const r = relative(realRoot, real);
      if (r.startsWith('..') || isAbsolute(r)) return { kind: 'outside' };
      const st = statSync(real, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size > MAX_FILE_BYTES) return { kind: 'not-a-file' };
      try {
        return { kind: 'file', lines: splitLines(readFileSync(real, 'utf8')) };
      } catch {
        return { kind: 'not-a-file' };
      }
    },
    files: () => (listed ??= walk(abs)),
    hasSources: () => hasEntryOutsideOkstra(abs),
  };
}

function walk(root: string): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0 && out.length < MAX_FILES) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      // Symlinks are not followed (a directory link could lead out or loop).
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) stack.push(rel);
      } else if (e.isFile()) out.push(rel);
    }
  }
  return out.sort();
}

function hasEntryOutsideOkstra(root: string): boolean {
  try {
    return readdirSync(root).some((name) => name !== '.okstra');
  } catch {
    return false;
  }
}

/** A recorded commit: 7 to 64 hex digits (a value an input file gives; anything else is refused, never passed to git). */
export const COMMIT = /^[0-9a-f]{7,64}$/i;

/**
 * The project's files at `commit`, read from the git repository holding `root` (`git ls-tree`,
 * `git cat-file`, by argv). @throws Error naming the commit when it is not a commit of that
 * repository (or git cannot read it): the caller reports the citations unchecked.
 */
export function commitTree(root: string, commit: string): SourceTree {
  if (!COMMIT.test(commit)) throw new Error(`'${commit}' is not a commit id`);
  const git = (args: string[]): Buffer =>
    execFileSync('git', ['-C', root, ...args], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024, env: gitEnv() });
  let prefix: string;
  const entries = new Map<string, { mode: string; oid: string }>();
  try {
    git(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`]);
    prefix = git(['rev-parse', '--show-prefix']).toString('utf8').trim();
    // -z: names as stored, NUL-separated; the listing is of `root` only (a project inside a larger repository).
    for (const rec of git(['ls-tree', '-r', '-z', '--full-tree', commit, '--', prefix || '.'])
      .toString('utf8')
      .split('\0')) {
      const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(rec);
      if (!m || !m[4]!.startsWith(prefix)) continue;
      entries.set(m[4]!.slice(prefix.length), { mode: m[1]!, oid: m[3]! });
    }
  } catch {
    throw new Error(`commit ${commit} cannot be read from the git repository at ${root}`);
  }
  const files = [...entries.keys()].sort();
  const blobs = new Map<string, Lookup>();
  return {
    label: `commit ${commit}`,
    lookup(rel) {
      const e = entries.get(rel);
      if (!e) return [...entries.keys()].some((k) => k.startsWith(`${rel}/`)) ? { kind: 'not-a-file' } : { kind: 'missing' };
      // 120000 is a symlink (never followed), 160000 a submodule: neither is a file of this project.
      if (e.mode !== '100644' && e.mode !== '100755') return { kind: 'not-a-file' };
      let hit = blobs.get(e.oid);
      if (!hit) {
        const blob = git(['cat-file', 'blob', e.oid]);
        hit = blob.length > MAX_FILE_BYTES ? { kind: 'not-a-file' } : { kind: 'file', lines: splitLines(blob.toString('utf8')) };
        blobs.set(e.oid, hit);
      }
      return hit;
    },
    files: () => files,
    hasSources: () => files.some((f) => !f.startsWith('.okstra/')),
  };
}

/** git's environment: the caller's, with no pager, no prompt and no repository override. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' };
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  return env;
}
