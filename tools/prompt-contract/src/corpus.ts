import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCommandLines, extractExampleBlocks, type CommandLine, type ExampleBlock } from './markdown.js';

/** The repository root (this package lives in `tools/prompt-contract/src`). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** The trees whose texts the contract covers. */
export const TEXT_DIRS = ['prompts', 'skills'] as const;

/** Every `.md` file under `<root>/prompts` and `<root>/skills`, root-relative, sorted. */
export function textFiles(root = REPO_ROOT): string[] {
  const walk = (dir: string): string[] => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
  };
  return TEXT_DIRS.flatMap((d) => walk(join(root, d)))
    .map((p) => relative(root, p))
    .sort();
}

/** Every okstra command line of the texts under `root`. */
export function corpusCommandLines(root = REPO_ROOT): CommandLine[] {
  return textFiles(root).flatMap((f) => extractCommandLines(readFileSync(join(root, f), 'utf8'), f));
}

/** Every `example=<kind>` block of the texts under `root`. */
export function corpusExamples(root = REPO_ROOT): ExampleBlock[] {
  return textFiles(root).flatMap((f) => extractExampleBlocks(readFileSync(join(root, f), 'utf8'), f));
}
