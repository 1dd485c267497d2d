import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ExitCode, InputError, UsageError, writeJson, type CliContext } from '@okstra/cli-kit';
import { installManifestArtifact, type InstallManifest } from '@okstra/schemas/install-manifest';
import { fsyncDirectory, prepareAtomicWrite, renderArtifact, type PreparedWrite } from '@okstra/state-file';
import { nextManifest, planInstall, wantedFiles, type Action, type Step } from './plan.js';
import { readShipped } from './shipped.js';
import { homeDir, okstraHome, resolveHosts, type Scope } from './targets.js';
import { checkInstall } from './check.js';
import { manifestPath, readManifest } from './manifest.js';

export interface InstallOptions {
  runtime: string;
  scope: string;
  projectRoot?: string;
  dryRun?: boolean;
  json?: boolean;
  force?: boolean;
  check?: boolean;
}

const WRITES: readonly Action[] = ['create', 'update', 'replace'];

/**
 * `okstra install` (docs/install.md): copy the shipped skills to where each host loads them and the lead/worker
 * texts to the okstra home, and record them. Every decision is made before the first write: a conflict
 * (a file changed by hand, or not okstra's) or an unsafe target (a symlink, a path leading outside its root) is
 * exit 2 with nothing written. The writes are prepared first (temp files beside their targets, fsynced), then
 * renamed in place; the manifest is written last. `--check` reports drift instead (exit 1).
 */
export async function runInstall(opts: InstallOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  if (opts.check) {
    for (const flag of ['dryRun', 'force'] as const)
      if (opts[flag]) throw new UsageError(`--check reads only; it takes no --${flag === 'dryRun' ? 'dry-run' : flag}`);
    return checkInstall({ json: opts.json === true }, ctx);
  }
  if (opts.scope !== 'user' && opts.scope !== 'project') throw new UsageError(`--scope: '${opts.scope}' is not one of user, project`);
  const scope: Scope = opts.scope;
  if (opts.projectRoot !== undefined && scope !== 'project') throw new UsageError('--project-root is for --scope project');
  const env = io.env;
  const base = { home: homeDir(env), projectRoot: resolve(io.cwd, opts.projectRoot ?? '.'), okstraHome: okstraHome(env) };
  const hosts = resolveHosts(opts.runtime, env);
  const manifestFile = manifestPath(env);
  const previous = readManifest(manifestFile);
  const steps = planInstall(wantedFiles(readShipped(), hosts, scope, base), previous, opts.force === true);
  const blocked = steps.filter((s) => s.action === 'conflict' || s.action === 'refused');
  const report = {
    schemaVersion: '1.0',
    okstraVersion: ctx.version,
    runtime: opts.runtime,
    hosts,
    scope,
    dryRun: opts.dryRun === true,
    manifest: manifestFile,
  };
  if (blocked.length > 0) {
    if (opts.json) writeJson(io, { ...report, ok: false, steps: steps.map(stepJson) });
    for (const s of blocked) io.stderr.write(`${ctx.name}: ${s.path} ${s.reason}\n`);
    const hint = blocked.some((s) => s.action === 'conflict') ? ' (--force replaces files changed by hand or not written by okstra)' : '';
    throw new InputError(`${blocked.length} file(s) cannot be installed: nothing was written${hint}`);
  }
  if (!opts.dryRun) apply(steps, nextManifest(previous, steps, ctx.version, io.now()), manifestFile);
  if (opts.json) writeJson(io, { ...report, ok: true, steps: steps.map(stepJson) });
  else io.stdout.write(summary(steps, hosts, opts.dryRun === true, manifestFile));
  return ExitCode.OK;
}

/**
 * Write every file and the manifest: all prepared first (so a full disk stops the install before anything
 * changed), then renamed in place, the manifest last; then the withdrawn files are removed. Killed midway, the
 * files already in place hold the new bytes, and the next install finds them unchanged.
 */
function apply(steps: readonly Step[], manifest: InstallManifest, manifestFile: string): void {
  const prepared: PreparedWrite[] = [];
  try {
    for (const s of steps) if (WRITES.includes(s.action)) prepared.push(prepareAtomicWrite(s.path, s.file!.bytes));
    prepared.push(prepareAtomicWrite(manifestFile, Buffer.from(renderArtifact(installManifestArtifact, manifest, {}, manifestFile), 'utf8')));
  } catch (error) {
    for (const p of prepared) p.discard();
    throw error;
  }
  for (const p of prepared) p.commit();
  for (const s of steps.filter((x) => x.action === 'remove')) {
    rmSync(s.path, { force: true });
    fsyncDirectory(join(s.path, '..'));
  }
}

function stepJson(s: Step) {
  return { action: s.action, path: s.path, target: s.target, scope: s.scope, source: s.source, ...(s.reason ? { reason: s.reason } : {}) };
}

/** One line per target root and a count per action. */
function summary(steps: readonly Step[], hosts: readonly string[], dryRun: boolean, manifestFile: string): string {
  const roots = new Map<string, Step[]>();
  for (const s of steps) roots.set(`${s.target}\t${s.root}`, [...(roots.get(`${s.target}\t${s.root}`) ?? []), s]);
  const lines = [`${dryRun ? 'would install' : 'installed'} okstra texts for ${hosts.length ? hosts.join(', ') : 'no host'}:`];
  for (const [key, group] of roots) {
    const [target, root] = key.split('\t');
    const counts = new Map<string, number>();
    for (const s of group) counts.set(s.action, (counts.get(s.action) ?? 0) + 1);
    lines.push(`  ${target!.padEnd(11)} ${root}  (${[...counts].map(([a, n]) => `${n} ${a}`).join(', ')})`);
  }
  for (const s of steps.filter((x) => x.action === 'keep')) lines.push(`  kept ${s.path}: ${s.reason}`);
  lines.push(dryRun ? '  nothing was written (--dry-run)' : `  recorded in ${manifestFile}`);
  return lines.join('\n') + '\n';
}
