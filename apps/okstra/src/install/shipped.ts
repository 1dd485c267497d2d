import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendAll } from '@okstra/cli-kit';

/** One text the package ships: its path relative to the shipped root (`skills/okstra-run/SKILL.md`) and its bytes. */
export interface ShippedFile {
  source: string;
  bytes: Buffer;
  sha256: string;
}

/** The package's texts: the lead/worker prompts and each skill's files, by skill name. */
export interface ShippedTexts {
  root: string;
  prompts: ShippedFile[];
  skills: Map<string, ShippedFile[]>;
}

/**
 * Where the shipped texts are: `dist/texts` beside the bundle (copied there by the build,
 * tools/ship-texts.mjs), or the repository root when run from source.
 */
export function shippedRoot(): string {
  for (const rel of ['./texts', '../../../../']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, 'prompts')) && existsSync(join(dir, 'skills'))) return dir;
  }
  throw new Error('the lead and worker texts are not in this okstra package (dist/texts is missing)');
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Every regular file under `dir`, sorted, as paths relative to `root` with `/` separators. */
function filesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) appendAll(out, filesUnder(root, rel));
    else if (entry.isFile()) out.push(rel.split(sep).join('/'));
  }
  return out;
}

/** Read the shipped prompts and skills (a skill is a folder of skills/ holding a SKILL.md). */
export function readShipped(root = shippedRoot()): ShippedTexts {
  const read = (source: string): ShippedFile => {
    const bytes = readFileSync(join(root, source));
    return { source, bytes, sha256: sha256(bytes) };
  };
  const prompts = filesUnder(root, 'prompts').map(read);
  const skills = new Map<string, ShippedFile[]>();
  for (const name of readdirSync(join(root, 'skills')).sort()) {
    if (!existsSync(join(root, 'skills', name, 'SKILL.md'))) continue;
    skills.set(name, filesUnder(root, join('skills', name)).map(read));
  }
  return { root, prompts, skills };
}

/** `skills/<name>/<rest>` → `<rest>` (the path inside the installed skill folder). */
export function insideSkill(source: string): string {
  return relative(join('skills', source.split('/')[1]!), source)
    .split(sep)
    .join('/');
}
