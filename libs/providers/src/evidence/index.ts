/**
 * The per-worker evidence of a provider run (docs/providers.md "Evidence"): which files the
 * worker's own tool events opened, searched or listed — Claude Code stream-json `tool_use`
 * (`Read`, `Grep`, `Glob`, `Bash`), Codex `command_execution` items of `exec --json`, and the
 * `exec_command` calls of Codex's session record (the `--json` stream may leave command items
 * out, and names no working directory). Kept as path references while the provider runs;
 * {@link resolveEvidence} decides against the disk which name a file inside the project.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { join as shellJoin } from 'shlex';
import type { EvidenceEntry } from '@okstra/schemas/worker-evidence';
import type { CaptureKind } from '@okstra/schemas/worker-usage';
import { commandRefs, type PathRef } from './shell.js';
import { appendAll } from '@okstra/core';

export { commandRefs, type PathRef } from './shell.js';

/** Reads a provider's stdout lines into path references. */
export interface EvidenceRecorder {
  push(line: string): void;
  /** Add the references of a Codex session rollout file (its text). */
  pushRollout(text: string): void;
  refs(): readonly PathRef[];
  /** The provider's own working directory, when its events named one (claude `init.cwd`, codex `session_meta.cwd`). */
  cwd(): string | null;
}

const obj = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

function parse(line: string): Record<string, unknown> | null {
  const t = line.trim();
  if (!t.startsWith('{')) return null;
  try {
    return obj(JSON.parse(t));
  } catch {
    return null;
  }
}

/** A recorder for a capture kind; null for a provider whose events are not read (`none`). */
export function createEvidenceRecorder(kind: CaptureKind): EvidenceRecorder | null {
  if (kind !== 'claude-stream-json' && kind !== 'codex-jsonl') return null;
  const refs: PathRef[] = [];
  const seenItems = new Set<string>();
  let cwd: string | null = null;
  const claudeToolUse = (name: string, input: Record<string, unknown>) => {
    if (name === 'Read') {
      const path = str(input.file_path);
      if (!path) return;
      const offset = int(input.offset);
      const limit = int(input.limit);
      const from = offset ?? 1;
      refs.push({ path, how: 'read', tool: 'Read', cwd: null, ...(limit ? { lines: [from, from + limit - 1] as [number, number] } : {}) });
    } else if (name === 'Grep') refs.push({ path: str(input.path) ?? '.', how: 'searched', tool: 'Grep', cwd: null });
    else if (name === 'Glob') refs.push({ path: str(input.path) ?? '.', how: 'listed', tool: 'Glob', cwd: null });
    else if (name === 'Bash' && str(input.command)) appendAll(refs, commandRefs(input.command as string, 'Bash'));
  };
  const codexCall = (name: string, args: Record<string, unknown>) => {
    const workdir = str(args.workdir);
    if (name === 'exec_command' && str(args.cmd)) appendAll(refs, commandRefs(args.cmd as string, 'exec_command', workdir));
    else if (name === 'shell' && Array.isArray(args.command) && args.command.every((w) => typeof w === 'string'))
      appendAll(refs, commandRefs(shellJoin(args.command as string[]), 'shell', workdir));
  };
  return {
    refs: () => refs,
    cwd: () => cwd,
    push(line) {
      const e = parse(line);
      if (!e) return;
      if (kind === 'claude-stream-json') {
        if (e.type === 'system' && e.subtype === 'init') cwd = str(e.cwd) ?? cwd;
        const content = e.type === 'assistant' ? obj(e.message)?.content : null;
        if (!Array.isArray(content)) return;
        for (const block of content.map(obj)) if (block?.type === 'tool_use' && str(block.name)) claudeToolUse(block.name as string, obj(block.input) ?? {});
        return;
      }
      const item = obj(e.item);
      if ((e.type === 'item.started' || e.type === 'item.completed') && item?.type === 'command_execution' && str(item.command)) {
        const id = str(item.id) ?? '';
        if (seenItems.has(id)) return;
        seenItems.add(id);
        appendAll(refs, commandRefs(item.command as string, 'command'));
      }
    },
    pushRollout(text) {
      for (const line of text.split('\n')) {
        if (!line.includes('"function_call"') && !line.includes('"session_meta"')) continue;
        const e = parse(line);
        const payload = obj(e?.payload);
        if (!payload) continue;
        if (e!.type === 'session_meta') cwd = str(payload.cwd) ?? cwd;
        if (payload.type !== 'function_call' || !str(payload.name)) continue;
        let args: Record<string, unknown> | null = null;
        try {
          args = obj(JSON.parse(String(payload.arguments)));
        } catch {
          continue;
        }
        if (args) codexCall(payload.name as string, args);
      }
    },
  };
}

/** A Codex rollout file's text, or null when it cannot be read. */
export function readRollout(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Which references name something inside `projectRoot`: a relative path is taken against its
 * command's directory, else the provider's working directory, else the project root (the first
 * where it exists); its real path must be inside the root's, so a symlink leading out is not
 * followed. A `read` must be a regular file. @returns the entries (project-relative, merged per
 * path and kind, sorted) and how many references named an existing path outside the project.
 */
export function resolveEvidence(refs: readonly PathRef[], projectRoot: string, providerCwd: string | null): { entries: EvidenceEntry[]; outside: number } {
  let realRoot: string;
  try {
    realRoot = realpathSync(projectRoot);
  } catch {
    return { entries: [], outside: 0 };
  }
  const merged = new Map<string, { path: string; how: EvidenceEntry['how']; tools: Set<string>; lines: Array<[number, number]> | null }>();
  let outside = 0;
  for (const ref of refs) {
    const bases = [ref.cwd && (isAbsolute(ref.cwd) ? ref.cwd : providerCwd ? join(providerCwd, ref.cwd) : null), providerCwd, projectRoot].filter(
      (b): b is string => Boolean(b),
    );
    const candidates = isAbsolute(ref.path) ? [ref.path] : bases.map((b) => resolve(b, ref.path));
    let real: string | null = null;
    for (const c of candidates) {
      try {
        real = realpathSync(c);
        break;
      } catch {
        // not there: the next base
      }
    }
    if (real === null) continue;
    const rel = relative(realRoot, real);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      outside++;
      continue;
    }
    const st = statSync(real, { throwIfNoEntry: false });
    if (!st || (ref.how === 'read' && !st.isFile())) continue;
    const path = rel === '' ? '.' : rel.split(sep).join('/');
    const key = `${ref.how}\0${path}`;
    const entry = merged.get(key) ?? { path, how: ref.how, tools: new Set<string>(), lines: [] };
    entry.tools.add(ref.tool);
    // One whole-file read makes the file's lines unknown-limited (absent).
    entry.lines = entry.lines === null || !ref.lines ? null : [...entry.lines, ref.lines];
    merged.set(key, entry);
  }
  const entries = [...merged.values()]
    .sort((a, b) => (a.path === b.path ? a.how.localeCompare(b.how) : a.path < b.path ? -1 : 1))
    .map((e) => ({ path: e.path, how: e.how, tools: [...e.tools].sort(), ...(e.lines && e.lines.length > 0 ? { lines: e.lines } : {}) }));
  return { entries, outside };
}
