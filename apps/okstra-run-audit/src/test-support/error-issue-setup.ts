// One set-up for the error-issue bin specs: a planted project, a recording gh stub on PATH and a
// HOME with the planted git identity, removed again by `cleanup()` (call it from afterEach).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '@okstra/audit-rules/test-support';
import { makeHome, makeStubGh, runBin } from './bin.js';
import { makePlantedProject, PLANTED_ENV, PLANTED_GITCONFIG } from './planted.js';

const cleanups: Array<() => void> = [];

/** Removes every project, gh stub and HOME made by `errorIssueSetup` since the last call. */
export function cleanup(): void {
  while (cleanups.length) cleanups.pop()!();
}

/** Registers one more removal for the next `cleanup()` (an extra project or HOME a spec makes). */
export function onCleanup(...fns: Array<() => void>): void {
  cleanups.push(...fns);
}

/**
 * A planted project with gh answering as `scenario` says and `config` as the user's okstra config;
 * `plan` / `submit` run the built bin's `error-issue plan|submit` against it (plan file in HOME).
 */
export function errorIssueSetup(scenario: Parameters<typeof makeStubGh>[0] = {}, config?: unknown) {
  const project: Project = makePlantedProject();
  const gh = makeStubGh(scenario);
  const home = makeHome(config, PLANTED_GITCONFIG);
  cleanups.push(
    () => project.cleanup(),
    () => rmSync(gh.dir, { recursive: true, force: true }),
    () => rmSync(home, { recursive: true, force: true }),
  );
  const env = { PATH: gh.dir, HOME: home, ...PLANTED_ENV };
  const planFile = join(home, 'plan.json');
  const plan = (...extra: string[]) => runBin(['error-issue', 'plan', '--project-root', project.root, '--output', planFile, ...extra], { env });
  const submit = (...extra: string[]) => runBin(['error-issue', 'submit', '--plan', planFile, ...extra], { env });
  const readPlan = () => JSON.parse(readFileSync(planFile, 'utf8'));
  return { project, gh, home, env, planFile, plan, submit, readPlan };
}
