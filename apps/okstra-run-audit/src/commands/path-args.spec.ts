import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@okstra/cli-kit';
import { EA, makeCleanProject, type Project } from '@okstra/audit-rules/test-support';
import { main } from '../main.js';

// Path arguments go through cli-kit's pathArg (docs/conventions.md "One rule,
// one home"): relative to the caller's io.cwd, never the process's, and `-`
// is refused where a file or directory is meant.
let project: Project;
afterEach(() => project?.cleanup());

describe('run-audit / worker-audit-check path arguments', () => {
  it('are relative to io.cwd (an in-process caller elsewhere than process.cwd)', async () => {
    project = makeCleanProject();
    expect(process.cwd()).not.toBe(project.root);
    const io = memoryIo({ cwd: project.root });
    expect(await main(['run-audit', '--project-root', '.', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ ok: true, projectRoot: project.root });
    const check = memoryIo({ cwd: project.root });
    const runDir = EA.manifest.split('/manifests/')[0]!;
    expect(await main(['worker-audit-check', '--run-dir', runDir, '--task-type', 'error-analysis', '--seq', '001'], check)).toBe(0);
  });

  it.each([
    ['run-audit', '--project-root', '-'],
    ['worker-audit-check', '--run-dir', '-', '--task-type', 'error-analysis', '--seq', '001'],
  ])('`-` for a directory argument is exit 2 saying so (%s)', async (...argv) => {
    const io = memoryIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.err()).toMatch(/^okstra-run-audit: -: '-' \(stdin\/stdout\) is accepted only for a document input or output; .*\n$/);
  });
});
