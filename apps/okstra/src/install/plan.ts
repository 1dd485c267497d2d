import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '@okstra/cli-kit';
import { assertReallyInside } from '@okstra/paths';
import type { InstalledFile, InstallHost, InstallManifest } from '@okstra/schemas/install-manifest';
import { insideSkill, sha256, type ShippedFile, type ShippedTexts } from './shipped.js';
import { skillHome, type Scope } from './targets.js';

/** One file the install would write: where, under which root, for which target, and the bytes. */
export interface Wanted {
  path: string;
  root: string;
  target: InstalledFile['target'];
  scope: Scope;
  file: ShippedFile;
}

/**
 * What the install does with one path:
 * - `create`: nothing there yet; `update`: there, exactly as the last install wrote it, and this okstra ships other bytes;
 * - `unchanged`: already these bytes; `replace`: a conflict overridden by `--force`;
 * - `conflict`: changed by hand since the last install, or a file okstra did not write — refused without `--force`;
 * - `refused`: cannot be written safely even with `--force` (a symlink, a folder, a path leading outside its root);
 * - `remove`: written by the last install, unchanged since, and no longer shipped; `keep`: the same but changed by hand (left alone).
 */
export type Action = 'create' | 'update' | 'unchanged' | 'replace' | 'conflict' | 'refused' | 'remove' | 'keep';

export interface Step {
  action: Action;
  path: string;
  root: string;
  target: InstalledFile['target'];
  scope: Scope;
  source: string;
  /** Why a conflict, refusal or keep. */
  reason?: string;
  file?: ShippedFile;
}

/** Every file this okstra ships for `hosts` (+ the texts), at its installed path. A path two hosts share is written once. */
export function wantedFiles(
  shipped: ShippedTexts,
  hosts: readonly InstallHost[],
  scope: Scope,
  base: { home: string; projectRoot: string; okstraHome: string },
): Wanted[] {
  const out = new Map<string, Wanted>();
  const textsRoot = base.okstraHome;
  for (const file of shipped.prompts) {
    out.set(join(textsRoot, file.source), { path: join(textsRoot, file.source), root: textsRoot, target: 'texts', scope: 'user', file });
  }
  for (const host of hosts) {
    const root = skillHome(host, scope, base);
    for (const [name, files] of shipped.skills) {
      for (const file of files) {
        const path = join(root, name, insideSkill(file.source));
        if (!out.has(path)) out.set(path, { path, root, target: host, scope, file });
      }
    }
  }
  return [...out.values()];
}

/** What is at `path`: its bytes' sha256, absent, or why it is not a regular file okstra may replace. */
function onDisk(path: string, root: string): { kind: 'absent' } | { kind: 'file'; sha256: string } | { kind: 'unsafe'; reason: string } {
  try {
    assertReallyInside(root, path, 'install target');
  } catch (error) {
    return { kind: 'unsafe', reason: error instanceof InputError ? error.message : String(error) };
  }
  let st;
  try {
    st = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ENOTDIR') return { kind: 'unsafe', reason: 'lies under a file, not a folder' };
    return { kind: 'unsafe', reason: `cannot be read (${code ?? 'error'})` };
  }
  if (st.isSymbolicLink()) return { kind: 'unsafe', reason: 'is a symbolic link (okstra does not write through links; remove it to install here)' };
  if (!st.isFile()) return { kind: 'unsafe', reason: 'is not a regular file' };
  return { kind: 'file', sha256: sha256(readFileSync(path)) };
}

/**
 * The install as steps, decided before anything is written: each wanted file against what is on disk and what the
 * last install recorded; then the recorded files of the same roots that this okstra no longer ships.
 */
export function planInstall(wanted: readonly Wanted[], manifest: InstallManifest | undefined, force: boolean): Step[] {
  const recorded = new Map((manifest?.files ?? []).map((f) => [f.path, f]));
  const steps: Step[] = [];
  for (const w of wanted) {
    const base = { path: w.path, root: w.root, target: w.target, scope: w.scope, source: w.file.source, file: w.file };
    const disk = onDisk(w.path, w.root);
    if (disk.kind === 'unsafe') steps.push({ ...base, action: 'refused', reason: disk.reason });
    else if (disk.kind === 'absent') steps.push({ ...base, action: 'create' });
    else if (disk.sha256 === w.file.sha256) steps.push({ ...base, action: 'unchanged' });
    else if (recorded.get(w.path)?.sha256 === disk.sha256) steps.push({ ...base, action: 'update' });
    else {
      const reason = recorded.has(w.path) ? 'changed since okstra installed it' : 'exists and was not written by okstra install';
      steps.push({ ...base, action: force ? 'replace' : 'conflict', reason });
    }
  }
  const wantedPaths = new Set(wanted.map((w) => w.path));
  const roots = new Set(wanted.map((w) => w.root));
  for (const f of manifest?.files ?? []) {
    if (wantedPaths.has(f.path) || !roots.has(f.root)) continue;
    const disk = onDisk(f.path, f.root);
    if (disk.kind === 'absent') continue;
    const base = { path: f.path, root: f.root, target: f.target, scope: f.scope, source: f.source };
    if (disk.kind === 'file' && disk.sha256 === f.sha256) steps.push({ ...base, action: 'remove' });
    else steps.push({ ...base, action: 'keep', reason: 'no longer shipped, but changed since okstra installed it: left in place' });
  }
  return steps;
}

/** The manifest after the steps ran: other roots' records kept, this install's files recorded with what they hold now. */
export function nextManifest(previous: InstallManifest | undefined, steps: readonly Step[], okstraVersion: string, now: Date): InstallManifest {
  const roots = new Set(steps.map((s) => s.root));
  const kept = (previous?.files ?? []).filter((f) => !roots.has(f.root));
  const written: InstalledFile[] = steps
    .filter((s) => s.file && ['create', 'update', 'unchanged', 'replace'].includes(s.action))
    .map((s) => ({ path: s.path, target: s.target, scope: s.scope, root: s.root, source: s.source, sha256: s.file!.sha256 }));
  const files = [...kept, ...written].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { schemaVersion: '1.0', kind: 'okstra-install-manifest', okstraVersion, installedAt: now.toISOString(), files };
}
