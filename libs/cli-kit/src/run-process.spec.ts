import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';

/** A directory holding one executable shell script `name`, for PATH. */
function scriptDir(name: string, body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-run-process-'));
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
  return dir;
}

describe('runProcess', () => {
  it('passes argv verbatim (no shell), stdin, and only the given env; strips one final newline', async () => {
    const dir = scriptDir('tool', 'printf "%s|" "$@"; echo; cat; echo "home=$HOME"; echo oops >&2; exit 3');
    const r = await runProcess('tool', ['a b', '$(touch x)', '; ls'], { env: { PATH: `${dir}:/usr/bin:/bin` }, input: 'body\n' });
    expect(r).toEqual({ exitCode: 3, signal: null, notFound: false, spawnError: null, stdout: 'a b|$(touch x)|; ls|\nbody\nhome=', stderr: 'oops' });
  });

  it('a missing executable resolves with notFound, never rejects', async () => {
    const r = await runProcess('okstra-no-such-tool', [], { env: { PATH: '/nonexistent' } });
    expect(r).toMatchObject({ exitCode: null, notFound: true, spawnError: null, stdout: '', stderr: '' });
  });

  it('a child that exits without reading a large input is its exit code, not an EPIPE', async () => {
    const dir = scriptDir('early', 'exit 0');
    const r = await runProcess('early', [], { env: { PATH: dir }, input: 'x'.repeat(4 * 1024 * 1024) });
    expect(r.exitCode).toBe(0);
  });

  it('a child ended by a signal reports it', async () => {
    const dir = scriptDir('killed', 'kill -TERM $$');
    const r = await runProcess('killed', [], { env: { PATH: `${dir}:/usr/bin:/bin` } });
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGTERM', notFound: false });
  });
});
