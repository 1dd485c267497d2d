// A job file for `okstra-team exec` in a fixture run, with alpha's row in progress since STARTED.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonFile, type Fixture } from './fixture.js';

export const STARTED = '2026-11-29T08:00:00.000Z';

/** Write alpha's job file (dispatch kind `initial` unless `over` says otherwise); @returns its path. */
export function writeExecJob(f: Fixture, command: { file: string; args: string[] }, over: Record<string, unknown> = {}): string {
  const state = f.teamState();
  state.workers[0] = { ...state.workers[0], status: 'in-progress', attempt: 1, startedAt: STARTED };
  writeJsonFile(f.teamStatePath, state);
  const kind = typeof over.dispatchKind === 'string' ? over.dispatchKind : 'initial';
  const path = join(f.runDir, 'state', 'team-jobs', `${kind}-alpha.job.json`);
  writeJsonFile(path, {
    schemaVersion: '1.0',
    dispatchKind: 'initial',
    workerId: 'alpha',
    provider: 'stub-ok',
    role: 'analyser',
    model: 'm',
    projectRoot: f.root,
    teamStatePath: f.teamStatePath,
    promptPath: f.prompt('alpha'),
    resultPath: f.result('alpha'),
    completionPaths: [f.result('alpha')],
    promptDelivery: 'stdin',
    command,
    rowStartedAt: STARTED,
    ...over,
  });
  return path;
}

/** alpha's status sidecar, parsed. */
export const execStatusOf = (f: Fixture) => JSON.parse(readFileSync(f.prompt('alpha').replace(/\.md$/, '.status.json'), 'utf8'));
