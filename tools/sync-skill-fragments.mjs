#!/usr/bin/env node
// Regenerate every generated fragment block in skills/**/*.md from its source
// (prompts/host-orchestration/README.md: one source, generated surfaces).
//
//   node tools/sync-skill-fragments.mjs            rewrite drifted blocks
//   node tools/sync-skill-fragments.mjs --check    exit 1 naming each drifted file; write nothing
//   --root <dir>                                   the repository root (default: this checkout)
//
// Exit 0 in sync (or synced), 1 drift found by --check, 2 a malformed or
// unknown block (file:line on stderr).
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MARKER = /^<!-- (BEGIN|END) FRAGMENT: ([a-z0-9][a-z0-9-]*) -->$/;

/** A block that cannot be synced; `file` and `line` (1-based) say where. */
export class FragmentError extends Error {
  constructor(file, line, message) {
    super(`${file}:${line}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

/**
 * The source file of fragment `name`, relative to the repository root, or
 * undefined for an unknown name. `host-orchestration-<task-type>` comes from
 * `prompts/host-orchestration/<task-type>.md`.
 */
export function fragmentSource(name) {
  const m = /^host-orchestration-([a-z0-9-]+)$/.exec(name);
  return m ? `prompts/host-orchestration/${m[1]}.md` : undefined;
}

/** The generated body between the BEGIN and END lines of fragment `name` (ends with a newline). */
export function renderFragment(name, source, sourceText) {
  const body = sourceText.replace(/\r\n/g, '\n').trimEnd();
  return `<!-- generated from ${source} by tools/sync-skill-fragments.mjs: edit the source, then run it -->\n\n${body}\n\n`;
}

/**
 * Sync the fragments of one Markdown text. `readSource(path)` returns a source
 * file's text. Returns `{ text, changed: [names] }`.
 * @throws FragmentError for an unpaired, nested or mismatched marker, an
 *   unknown fragment name, or a missing source file.
 */
export function syncText(file, text, readSource) {
  const lines = text.split('\n');
  const out = [];
  const changed = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i].trimEnd());
    if (!m) {
      out.push(lines[i]);
      continue;
    }
    const [, kind, name] = m;
    if (kind === 'END') throw new FragmentError(file, i + 1, `END FRAGMENT: ${name} without a BEGIN`);
    const end = lines.findIndex((l, j) => j > i && MARKER.test(l.trimEnd()));
    const endMatch = end < 0 ? null : MARKER.exec(lines[end].trimEnd());
    if (!endMatch || endMatch[1] !== 'END' || endMatch[2] !== name) {
      throw new FragmentError(file, i + 1, `BEGIN FRAGMENT: ${name} needs a matching <!-- END FRAGMENT: ${name} --> before any other marker`);
    }
    const source = fragmentSource(name);
    if (!source) throw new FragmentError(file, i + 1, `unknown fragment '${name}' (known: host-orchestration-<task-type>)`);
    let sourceText;
    try {
      sourceText = readSource(source);
    } catch {
      throw new FragmentError(file, i + 1, `fragment '${name}': source ${source} cannot be read`);
    }
    const current = lines.slice(i + 1, end).join('\n') + '\n';
    const wanted = renderFragment(name, source, sourceText);
    if (current !== wanted) changed.push(name);
    out.push(lines[i], ...wanted.slice(0, -1).split('\n'), lines[end]);
    i = end;
  }
  return { text: out.join('\n'), changed };
}

/** Every `.md` file under `dir`, sorted, as absolute paths. */
function markdownFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []));
}

/**
 * Sync (or with `check`, only compare) every fragment under `<root>/skills`.
 * Returns `{ drifted: [{ file, names }] }` with root-relative file paths;
 * writes a drifted file (temp + rename) unless `check`.
 */
export function syncFragments(root, { check = false } = {}) {
  const drifted = [];
  for (const path of markdownFiles(join(root, 'skills'))) {
    const file = relative(root, path);
    const { text, changed } = syncText(file, readFileSync(path, 'utf8'), (src) => readFileSync(join(root, src), 'utf8'));
    if (changed.length === 0) continue;
    drifted.push({ file, names: changed });
    if (!check) {
      writeFileSync(`${path}.tmp`, text);
      renameSync(`${path}.tmp`, path);
    }
  }
  return { drifted };
}

function main(argv) {
  let check = false;
  let root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') check = true;
    else if (argv[i] === '--root' && argv[i + 1]) root = resolve(argv[++i]);
    else {
      process.stderr.write(`sync-skill-fragments: unknown argument '${argv[i]}' (usage: [--check] [--root <dir>])\n`);
      return 2;
    }
  }
  try {
    const { drifted } = syncFragments(root, { check });
    for (const d of drifted) {
      const what = check ? 'drifted' : 'updated';
      process.stderr.write(`sync-skill-fragments: ${what}: ${d.file} (fragment ${d.names.join(', ')})\n`);
    }
    if (check && drifted.length > 0) {
      process.stderr.write('sync-skill-fragments: run `node tools/sync-skill-fragments.mjs` and commit the result\n');
      return 1;
    }
    return 0;
  } catch (error) {
    if (!(error instanceof FragmentError)) throw error;
    process.stderr.write(`sync-skill-fragments: ${error.message}\n`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
