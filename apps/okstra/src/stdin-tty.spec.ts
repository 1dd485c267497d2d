// `-` with stdin a terminal (a tmux pane nobody types into) is exit 2 at once,
// never a wait for typed input. Through the real bins on a real pty (`script`).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const bin = (name: string) => new URL(`../../${name}/dist/bin.js`, import.meta.url).pathname;
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!existsSync('/usr/bin/script'))("a document read from '-' when stdin is a terminal", () => {
  it.each([
    ['okstra-plan-items extract --data -', [bin('okstra-plan-items'), 'extract', '--data', '-', '--output', '-']],
    [
      'okstra convergence seed --groups -',
      [bin('okstra'), 'convergence', 'seed', '--groups', '-', '--work-state', 'w.json', '--final-state', 'f.json', '--migration-dir', 'm'],
    ],
  ])('%s: exit 2 naming stdin (was: a wait for typed input)', (_name, argv) => {
    const cmd = [process.execPath, ...argv].map(q).join(' ');
    // script gives the command a pty on stdin; our own stdin is /dev/null, so the pty ends at once either way.
    const r = spawnSync('script', ['-qec', `${cmd}; echo "rc=$?"`, '/dev/null'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000 });
    expect(r.stdout).toMatch(/-: '-' reads the document from stdin, but stdin is a terminal: pipe the document in \(< file\) or give its path/);
    expect(r.stdout).toMatch(/rc=2\s*$/);
  });
});
