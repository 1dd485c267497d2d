// A closed stdout (the reader of a pipe went away) ends a command quietly:
// no EPIPE stack trace, exit 141 (128 + SIGPIPE) instead of a 0/1 that would
// read as "ok" or "violations found" (docs/conventions.md). Through the real
// bins and a real pipe; the writer starts only once the reader has closed its
// end, so the EPIPE is certain, not a race.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name: string) => new URL(`../../${name}/dist/bin.js`, import.meta.url).pathname;
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `writer | reader` in bash; the writer (node) runs once `gate` exists. Returns the writer's exit code, the pipeline's stdout and stderr. */
function pipeline(writer: string[], reader: string) {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-epipe-'));
  const gate = join(dir, 'reader-gone');
  try {
    const cmd = `(printf 'first line\\n'; until [ -e ${q(gate)} ]; do sleep 0.01; done; exec ${[process.execPath, ...writer].map(q).join(' ')}) | (${reader}; exec 0<&-; touch ${q(gate)}; sleep 0.2); echo "writer=\${PIPESTATUS[0]}" >&2`;
    const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8', timeout: 30_000 });
    const m = /writer=(\d+)\n$/.exec(r.stderr);
    return { code: m ? Number(m[1]) : null, stdout: r.stdout, stderr: r.stderr.replace(/writer=\d+\n$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a closed stdout', () => {
  it.each([
    ['okstra run-audit --help', [bin('okstra'), 'run-audit', '--help']],
    ['okstra-convergence example --kind groups', [bin('okstra-convergence'), 'example', '--kind', 'groups']],
    ['okstra-plan-items --version', [bin('okstra-plan-items'), '--version']],
  ])('`%s | head -1`: exit 141, nothing on stderr', (_name, argv) => {
    const r = pipeline(argv, 'head -1');
    expect(r.stdout).toBe('first line\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(141);
  });

  it('a reader that never reads (`| true`): exit 141, no stack trace', () => {
    const r = pipeline([bin('okstra'), 'convergence', 'example', '--kind', 'groups'], 'true');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(141);
  });

  it('a stdout that fails otherwise (`> /dev/full`, ENOSPC): one stderr line, exit 2, no stack trace (was a stack trace and exit 1, "violations found")', () => {
    for (const argv of [
      [bin('okstra-convergence'), 'example', '--kind', 'groups'],
      [bin('okstra'), 'convergence', 'example', '--kind', 'groups'],
    ]) {
      const r = spawnSync('bash', ['-c', `exec ${[process.execPath, ...argv].map(q).join(' ')} > /dev/full`], { encoding: 'utf8', timeout: 30_000 });
      expect(r.stderr).toMatch(/^okstra(-convergence)?: stdout: cannot write the output \(ENOSPC: no space left on device, write\); it is incomplete\n$/);
      expect(r.status).toBe(2);
    }
  });

  it('an open stdout is untouched: the whole document, exit 0', () => {
    const r = spawnSync(process.execPath, [bin('okstra-convergence'), 'example', '--kind', 'groups'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'convergence-groups' });
  });
});
