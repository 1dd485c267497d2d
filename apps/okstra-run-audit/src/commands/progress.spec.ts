import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@okstra/cli-kit';
import { EA, TASK_ROOT_REL, makeCleanProject, type Project } from '@okstra/audit-rules/test-support';
import { main } from '../main.js';

let project: Project;
afterEach(() => project?.cleanup());

/** A clean project with 100 more copies of the error-analysis run (seqs 002–101), each aborted with its failure logged. */
function bigProject(): Project {
  const p = makeCleanProject();
  const manifest = p.json(EA.manifest);
  const state = p.json(EA.teamState);
  for (let n = 2; n <= 101; n++) {
    const seq = String(n).padStart(3, '0');
    const dir = `${TASK_ROOT_REL}/runs/error-analysis`;
    p.write(`${dir}/manifests/run-manifest-error-analysis-${seq}.json`, {
      ...manifest,
      seq,
      status: 'aborted',
      teamStatePath: `${dir}/state/team-state-error-analysis-${seq}.json`,
    });
    p.write(`${dir}/state/team-state-error-analysis-${seq}.json`, { ...state, seq, workers: [] });
  }
  // Each copy stopped on purpose and said so (a running run followed by a later seq is run-stale).
  p.write(
    `${TASK_ROOT_REL}/errors-copies.jsonl`,
    Array.from({ length: 100 }, (_, i) => JSON.stringify({ taskType: 'error-analysis', seq: i + 2 })).join('\n') + '\n',
  );
  return p;
}

describe('run-audit progress', () => {
  it('one line per 100 runs and the total on stderr in every mode (a live line on a TTY), none with --quiet', async () => {
    project = bigProject();
    let err = '';
    const tty = memoryIo({ stderr: { write: (s: string) => ((err += s), true), isTTY: true } });
    expect(await main(['run-audit', '--project-root', project.root, '--json'], tty)).toBe(0);
    expect(err).toBe('\r\x1b[Kokstra-run-audit: 100 runs scanned…\r\x1b[Kokstra-run-audit: 103 runs scanned\n');
    expect(JSON.parse(tty.out()).runsScanned).toBe(103);

    const pipe = memoryIo();
    expect(await main(['run-audit', '--project-root', project.root, '--json'], pipe)).toBe(0);
    expect(pipe.err()).toBe('okstra-run-audit: 100 runs scanned…\nokstra-run-audit: 103 runs scanned\n');
    expect(pipe.out()).toBe(tty.out());

    const quiet = memoryIo();
    expect(await main(['run-audit', '--project-root', project.root, '--json', '--quiet'], quiet)).toBe(0);
    expect(quiet.err()).toBe('');
  });
});
