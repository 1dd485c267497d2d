import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.js';
import { splitShellLine } from './shell-words.js';

/**
 * docs/worked-examples.md stays true: each `sh` block's command runs, in
 * order, through the built umbrella in a copy of examples/sample-project; its
 * exit code (a trailing `# exit N`, else 0) and stdout must be the following
 * `text` block. Paths of the copy print as project-relative, and a time this
 * run wrote prints as `<time>`.
 */
const BIN = join(REPO_ROOT, 'apps/okstra/dist/bin.js');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function examples(): Array<{ command: string; exit: number; output: string }> {
  const page = readFileSync(join(REPO_ROOT, 'docs/worked-examples.md'), 'utf8');
  return [...page.matchAll(/```sh\n(.+)\n```\n+```text\n([\s\S]*?)```/g)].map((m) => ({
    command: m[1]!,
    exit: Number(/# exit (\d+)\s*$/.exec(m[1]!)?.[1] ?? 0),
    output: m[2]!,
  }));
}

describe('docs/worked-examples.md', () => {
  const list = examples();

  it('has one per tool', () => {
    expect(list.map((e) => splitShellLine(e.command)[0]!.slice(0, 2).join(' '))).toEqual([
      'okstra convergence',
      'okstra plan-items',
      'okstra worker-liveness',
      'okstra run-audit',
      'okstra worker-state',
    ]);
  });

  it('print what the page shows, run in order on a copy of the sample project', () => {
    const root = mkdtempSync(join(tmpdir(), 'okstra-readme-'));
    dirs.push(root);
    const sp = join(root, 'sp');
    cpSync(join(REPO_ROOT, 'examples/sample-project'), sp, { recursive: true });
    const started = Date.now() - 60_000;
    for (const example of list) {
      const words = splitShellLine(example.command)[0]!;
      const r = spawnSync(process.execPath, [BIN, ...words.slice(1)], { cwd: sp, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      const stdout = r.stdout
        .replaceAll(`${sp}/`, '')
        .replaceAll(sp, '.')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, (t) => (Date.parse(t) >= started ? '<time>' : t));
      expect({ command: example.command, exit: r.status, stdout }).toEqual({ command: example.command, exit: example.exit, stdout: example.output });
    }
  });
});
