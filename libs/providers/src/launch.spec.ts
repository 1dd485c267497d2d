import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchValuesOf, livenessModeOf, resolveProviderExecutable, writeRootOf } from './index.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const run = '/proj/.okstra/tasks/g/t/runs/error-analysis';
const job = {
  model: 'm',
  projectRoot: '/proj',
  promptPath: `${run}/prompts/codex-prompt-error-analysis-001.md`,
  resultPath: `${run}/worker-results/codex-error-analysis-001.md`,
  completionPaths: [`${run}/worker-results/codex-error-analysis-001.md`],
  auditSidecarPath: `${run}/worker-results/codex-error-analysis-001.audit.md`,
};

describe('what a worker may write (writeRootOf)', () => {
  it('an analyser, critic, reverify worker or report writer: only its delivery directory', () => {
    for (const role of ['analyser', 'critic', 'worker-reverify-r2', 'report-writer']) expect(writeRootOf({ ...job, role })).toBe(`${run}/worker-results`);
  });
  it('an implementation role: the project root', () => {
    for (const role of ['executor', 'implementer']) expect(writeRootOf({ ...job, role })).toBe('/proj');
  });
  it('deliverables in different directories: their deepest common directory, never above the root', () => {
    expect(writeRootOf({ ...job, role: 'analyser', completionPaths: [`${run}/worker-results/a.md`, `${run}/reports/b.md`] })).toBe(run);
  });
  it('the last-message file sits beside the prompt and is not a .md', () => {
    expect(launchValuesOf({ ...job, role: 'analyser' }).lastMessagePath).toBe(`${run}/prompts/codex-prompt-error-analysis-001.last-message.txt`);
  });
});

describe('the liveness mode of a CLI worker (livenessModeOf)', () => {
  const sidecar = job.auditSidecarPath;
  it('audit-heartbeat only when the prompt tells it to write PROGRESS lines into its sidecar', () => {
    expect(livenessModeOf({ auditSidecarPath: sidecar, promptText: `Append \`- PROGRESS: <time>\` lines to ${sidecar}.` })).toBe('audit-heartbeat');
  });
  it('wrapper-status when the prompt never asks for heartbeats, or there is no sidecar', () => {
    expect(livenessModeOf({ auditSidecarPath: sidecar, promptText: '# Analyse src/refund.ts' })).toBe('wrapper-status');
    expect(livenessModeOf({ auditSidecarPath: sidecar, promptText: 'Write - PROGRESS: lines somewhere' })).toBe('wrapper-status');
    expect(livenessModeOf({ auditSidecarPath: null, promptText: `- PROGRESS: into ${sidecar}` })).toBe('wrapper-status');
  });
});

describe('provider executables at dispatch (resolveProviderExecutable)', () => {
  // The PATH lookup itself is @okstra/core's findOnPath (its own tests); here one that knows the stub dir.
  const onPath = (dir: string) => (name: string) => (name === 'codex' ? join(dir, name) : null);
  const bin = mkdtempSync(join(tmpdir(), 'okstra-bin-'));
  dirs.push(bin);
  mkdirSync(join(bin, 'dir'));
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
  chmodSync(join(bin, 'codex'), 0o755);
  writeFileSync(join(bin, 'plain'), 'not executable\n');
  it('a bare name found on PATH resolves to its absolute path; a path must be an executable file', () => {
    expect(resolveProviderExecutable('codex', onPath(bin))).toBe(join(bin, 'codex'));
  });
  it('a missing CLI is an input error naming it, the file and the field', () => {
    expect(() => resolveProviderExecutable('kimi', onPath(bin), { file: 'm.json', field: 'workerAssignments[0].provider' })).toThrow(
      expect.objectContaining({ message: "provider CLI 'kimi' not found on PATH", file: 'm.json', field: 'workerAssignments[0].provider' }),
    );
    expect(() => resolveProviderExecutable(join(bin, 'dir'), onPath(bin))).toThrow('is not an executable file');
    expect(() => resolveProviderExecutable(join(bin, 'plain'), onPath(bin))).toThrow('is not an executable file');
  });
});
