// Helpers for specs that run the real built bin (`dist/bin.js`, built by the
// nx `test` target's dependency on `build`).
import { runBin } from '@okstra/core/test-support';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built bin. */
export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
/** The repository root. */
export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
/** The sample error-analysis run under examples/ (relative to a copy of examples/). */
export const RUN_REL = 'sample-project/.okstra/tasks/payments/refund-timeout/runs/error-analysis';

/** Exit code and output of one run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `okstra-convergence <args>` in `cwd` (the shared `runBin`). */
export function cli(args: string[], cwd: string = process.cwd()): CliResult {
  const { code, stdout, stderr } = runBin(BIN, args, { cwd });
  return { code, stdout, stderr };
}

/** `cli` that must exit 0; returns parsed stdout JSON. */
export function ok(args: string[], cwd?: string): any {
  const r = cli(args, cwd);
  if (r.code !== 0) throw new Error(`okstra-convergence ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const made: string[] = [];

/** A fresh temp dir, removed by {@link removeTempDirs}. */
export function tempDir(prefix = 'okstra-conv-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Remove every dir {@link tempDir} made (call in `afterAll`). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A temp copy of examples/; returns the copied run dir. */
export function copyExamples(): string {
  const dir = tempDir('okstra-conv-ex-');
  cpSync(join(REPO, 'examples'), dir, { recursive: true });
  return join(dir, RUN_REL);
}

/** Every file under `dir` (relative path → sha256 of its bytes), for "nothing written" checks. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        out[relative(dir, p) + '/'] = 'dir';
        walk(p);
      } else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/**
 * The worker flags of collect-results / collect-critic-gaps: `--result <id>=<file>`
 * for each of `results`, then `--dispatch <id>=<status>:<ms>` for each of
 * `dispatches`, in the order given.
 */
export function workerFlags(results: Record<string, string>, dispatches: Record<string, string>): string[] {
  return [
    ...Object.entries(results).flatMap(([id, file]) => ['--result', `${id}=${file}`]),
    ...Object.entries(dispatches).flatMap(([id, status]) => ['--dispatch', `${id}=${status}`]),
  ];
}

/** A temp dir holding `okstra-convergence example --kind <kind>` as `<file>` for each entry. */
export function exampleDir(files: Record<string, string>, prefix?: string): string {
  const dir = tempDir(prefix);
  for (const [file, kind] of Object.entries(files)) writeFileSync(join(dir, file), cli(['example', '--kind', kind]).stdout);
  return dir;
}

/** `seed` of `groups.json` in `dir` into `work.json` / `final.json` (migration dir `mig`), then `plan-round` into `plan.json`. */
export function seedAndPlan(dir: string): void {
  ok(['seed', '--groups', 'groups.json', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig'], dir);
  ok(['plan-round', '--work-state', 'work.json', '--plan', 'plan.json'], dir);
}
