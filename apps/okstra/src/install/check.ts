import { lstatSync, readFileSync } from 'node:fs';
import { ExitCode, writeJson, type CliContext } from '@okstra/cli-kit';
import type { InstalledFile } from '@okstra/schemas/install-manifest';
import { manifestPath, readManifest } from './manifest.js';
import { insideSkill, readShipped, sha256, type ShippedFile } from './shipped.js';
import { join } from 'node:path';

/**
 * How one installed file stands against the okstra installed now:
 * `current` (the bytes this okstra ships); `outdated` (as the last install wrote it, but this okstra ships other
 * bytes: run `okstra install`); `modified` (changed by hand since); `missing` (recorded, gone); `withdrawn` (this
 * okstra no longer ships it); `new` (this okstra ships it for a root the last install wrote, and it is not there).
 */
export type FileState = 'current' | 'outdated' | 'modified' | 'missing' | 'withdrawn' | 'new';

interface Checked {
  path: string;
  target: InstalledFile['target'];
  scope: InstalledFile['scope'];
  source: string;
  state: FileState;
}

function diskSha(path: string): string | null {
  try {
    if (!lstatSync(path).isFile()) return null;
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}

/**
 * `okstra install --check`: compare every file the manifest records with what this okstra ships, and look for
 * shipped files missing from the roots it installed to. Exit 0 when everything is current; exit 1 on drift (or
 * nothing installed), one line per file that is not current (`--json`: the whole table). Reads only.
 */
export function checkInstall(opts: { json: boolean }, ctx: CliContext): number {
  const { io } = ctx;
  const file = manifestPath(io.env);
  const manifest = readManifest(file);
  const shipped = readShipped();
  const bySource = new Map<string, ShippedFile>([...shipped.prompts, ...[...shipped.skills.values()].flat()].map((f) => [f.source, f]));
  const rows: Checked[] = [];
  for (const f of manifest?.files ?? []) {
    const now = bySource.get(f.source);
    const disk = diskSha(f.path);
    const state: FileState =
      disk === null ? 'missing' : disk !== f.sha256 ? 'modified' : now === undefined ? 'withdrawn' : now.sha256 !== f.sha256 ? 'outdated' : 'current';
    rows.push({ path: f.path, target: f.target, scope: f.scope, source: f.source, state });
  }
  // Shipped files a root of the last install lacks (a newer okstra added a prompt or a skill file).
  const recorded = new Set((manifest?.files ?? []).map((f) => f.path));
  const roots = new Map((manifest?.files ?? []).map((f) => [`${f.target}\t${f.root}`, f]));
  for (const f of roots.values()) {
    const files = f.target === 'texts' ? shipped.prompts : [...shipped.skills.values()].flat();
    for (const s of files) {
      const path = f.target === 'texts' ? join(f.root, s.source) : join(f.root, s.source.split('/')[1]!, insideSkill(s.source));
      if (!recorded.has(path)) rows.push({ path, target: f.target, scope: f.scope, source: s.source, state: 'new' });
    }
  }
  const drift = rows.filter((r) => r.state !== 'current');
  const installed = manifest !== undefined && manifest.files.length > 0;
  const ok = installed && drift.length === 0;
  if (opts.json) {
    const counts = Object.fromEntries(
      ['current', 'outdated', 'modified', 'missing', 'withdrawn', 'new'].map((s) => [s, rows.filter((r) => r.state === s).length]),
    );
    writeJson(io, {
      schemaVersion: '1.0',
      ok,
      manifest: file,
      installedVersion: manifest?.okstraVersion ?? null,
      okstraVersion: ctx.version,
      counts,
      files: rows,
    });
  } else if (!installed) {
    io.stdout.write(`nothing installed (no ${file}): run 'okstra install'\n`);
  } else {
    for (const r of drift) io.stdout.write(`${r.state.padEnd(9)} ${r.path}\n`);
    io.stdout.write(
      ok
        ? `okstra install: ${rows.length} installed files match okstra ${ctx.version} (installed by ${manifest.okstraVersion})\n`
        : `okstra install: ${drift.length} of ${rows.length} files drifted from okstra ${ctx.version} (installed by ${manifest.okstraVersion}); 'okstra install' updates outdated/missing/new files (--force also modified ones)\n`,
    );
  }
  return ok ? ExitCode.OK : ExitCode.JUDGEMENT;
}
