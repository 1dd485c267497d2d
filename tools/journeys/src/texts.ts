import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCommandLines, extractExampleBlocks, type CommandLine } from '@okstra/prompt-contract/markdown';

/** The repository root (this package lives in `tools/journeys/src`). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** Every okstra command line of a text (fenced `sh` lines and inline code, operation tables included), in order. */
export function commandsOf(file: string): CommandLine[] {
  return extractCommandLines(readFileSync(join(REPO_ROOT, file), 'utf8'), file);
}

/** The `example=<kind>` block of a text (the worker texts' answer shapes, the jobs-file shape). */
export function exampleOf(file: string, kind: string): string {
  const block = extractExampleBlocks(readFileSync(join(REPO_ROOT, file), 'utf8'), file).find((b) => b.kind === kind);
  if (!block) throw new Error(`${file} has no example=${kind} block`);
  return block.value;
}

/** What picks one command line of a text: its command words, and flags (with values, when given) it carries. */
export interface LineMatch {
  /** The command words after `okstra` (`['team', 'dispatch']`). */
  command: readonly string[];
  /** Flags the line must carry; a value (placeholders included, as written) the flag's value must equal. */
  with?: Readonly<Record<string, string | true>>;
  /** Flags the line must not carry. */
  without?: readonly string[];
}

/**
 * The first command line of `file` matching `m`. The journeys never retype a command: they pick the text's
 * line by what it does and fill its placeholders, so a text that changes is a journey that changes.
 * @throws when the text has no such line (the text lost a step a lead needs).
 */
export function lineOf(file: string, m: LineMatch): CommandLine {
  const hit = commandsOf(file).find((c) => matches(c.words, m));
  if (!hit) throw new Error(`${file} has no command line 'okstra ${m.command.join(' ')}'${m.with ? ` with ${JSON.stringify(m.with)}` : ''}`);
  return hit;
}

function matches(words: readonly string[], m: LineMatch): boolean {
  if (words[0] !== 'okstra' || m.command.some((w, i) => words[i + 1] !== w)) return false;
  for (const [flag, value] of Object.entries(m.with ?? {})) {
    const i = words.indexOf(flag);
    if (i < 0 || (value !== true && words[i + 1] !== value)) return false;
  }
  return !(m.without ?? []).some((f) => words.includes(f));
}

/** Values for a line's placeholders (`<root>` → …); a list value repeats the flags around a numbered placeholder. */
export type Values = Readonly<Record<string, string | readonly string[]>>;

/**
 * The line's argv (without the leading `okstra`) with every placeholder filled from `values`. A numbered
 * placeholder pair (`--worker <id-1> … --worker <id-2>`) is the text's way to say "one per worker": the flags
 * of one copy are repeated once per item of the list value of `<id>` (okstra-tools.md "Placeholders").
 * @throws naming the placeholder when a value is missing: a text that leaves a value to the lead must say
 *   where it comes from, and the journey must know it.
 */
export function fill(line: CommandLine, values: Values): string[] {
  let words = line.words.slice(1);
  const first = words.findIndex((w) => /<([a-z-]+)-1>/.test(w));
  if (first >= 0) {
    const base = /<([a-z-]+)-1>/.exec(words[first]!)![1]!;
    const second = words.findIndex((w) => w.includes(`<${base}-2>`));
    if (second < 0) throw new Error(`${line.file}:${line.line}: <${base}-1> without <${base}-2>`);
    const unit = words.slice(first - (second - first) + 1, first + 1);
    const list = values[`<${base}>`];
    if (!Array.isArray(list)) throw new Error(`${line.file}:${line.line}: no list of values for <${base}-N>`);
    const repeated = list.flatMap((v: string) => unit.map((w) => w.replace(`<${base}-1>`, v)));
    words = [...words.slice(0, first - unit.length + 1), ...repeated, ...words.slice(second + 1)];
  }
  return words.map((w) =>
    w.replace(/<[^<>\s][^<>]*>/g, (p) => {
      const v = values[p];
      if (typeof v !== 'string') throw new Error(`${line.file}:${line.line}: the journey has no value for ${p} in '${line.text}'`);
      return v;
    }),
  );
}
