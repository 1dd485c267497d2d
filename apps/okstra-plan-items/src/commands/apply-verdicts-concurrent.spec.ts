// Two apply-verdicts on one data.json at once serialize on its file lock: both
// succeed and the file ends as one complete round, never a mix of the two.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, copyExampleRun, RUN_FILES, runBin, UMBRELLA } from '../test-support/run-bin.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = copyExampleRun()));
afterEach(() => cleanup());

function applyAsync(verdicts: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'apply-verdicts', '--data', RUN_FILES.data, '--verdicts', verdicts], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('apply-verdicts concurrency (real processes)', () => {
  it('two writers at once: both exit 0, the file is one complete round', async () => {
    const collect = (worker: string, out: string) =>
      runBin(
        ['collect-verdicts', '--result', `${worker}=${worker === 'claude' ? RUN_FILES.claude : RUN_FILES.codex}`, '--items', RUN_FILES.items, '--output', out],
        dir,
      );
    expect(collect('claude', 'claude.json').code).toBe(0);
    expect(collect('codex', 'codex.json').code).toBe(0);
    const original = readFileSync(join(dir, RUN_FILES.data), 'utf8');
    const complete = new Set<string>();
    for (const env of ['claude.json', 'codex.json']) {
      writeFileSync(join(dir, RUN_FILES.data), original);
      expect(runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', env], dir).code).toBe(0);
      complete.add(readFileSync(join(dir, RUN_FILES.data), 'utf8'));
    }
    writeFileSync(join(dir, RUN_FILES.data), original);
    const codes = await Promise.all([applyAsync('claude.json'), applyAsync('codex.json')]);
    expect(codes).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    expect(complete.has(readFileSync(join(dir, RUN_FILES.data), 'utf8'))).toBe(true);
  });

  it('runs as `okstra plan-items extract` through the umbrella with the same bytes', () => {
    expect(runBin(['plan-items', 'extract', '--data', RUN_FILES.data, '--output', 'via-umbrella.json'], dir, UMBRELLA).code).toBe(0);
    expect(readFileSync(join(dir, 'via-umbrella.json'), 'utf8')).toBe(readFileSync(join(dir, RUN_FILES.items), 'utf8'));
  });
});
