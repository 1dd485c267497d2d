import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway project root; every path argument is project-relative. */
export interface TempProject {
  root: string;
  /** Write text (or an object as 2-space JSON + newline), creating directories; optionally set the mtime. Returns the absolute path. */
  write(rel: string, content: string | object, mtime?: Date): string;
  read(rel: string): string;
  json<T = any>(rel: string): T;
  /** Read JSON, let `fn` change it in place, write it back. */
  edit<T = any>(rel: string, fn: (value: T) => void): void;
  remove(rel: string): void;
  cleanup(): void;
}

/** The one project-fixture builder the libs' and apps' tests share: a fresh temp dir under the OS temp root. */
export function makeTempProject(prefix = 'okstra-test-'): TempProject {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const p: TempProject = {
    root,
    write(rel, content, mtime) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
      if (mtime) utimesSync(abs, mtime, mtime);
      return abs;
    },
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    json: (rel) => JSON.parse(readFileSync(join(root, rel), 'utf8')),
    edit(rel, fn) {
      const value = p.json(rel);
      fn(value);
      p.write(rel, value);
    },
    remove: (rel) => rmSync(join(root, rel), { recursive: true, force: true }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  return p;
}
