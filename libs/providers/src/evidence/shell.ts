/**
 * What a shell command a worker ran reads, searches or lists (docs/providers.md "Evidence"):
 * the operands of known file readers (`cat`, `sed`, `head`, `nl`, …), searchers (`grep`, `rg`,
 * `git grep`, …) and listers (`ls`, `find`, …). Operands are taken as candidate paths; which of
 * them name a file inside the project is decided later, against the disk ({@link resolveEvidence}).
 * The command is split with a POSIX-like lexer (shlex); `bash -c '…'` is unwrapped, `cd` moves
 * the working directory for what follows it. A heuristic over command lines, with documented limits:
 * globs are not expanded, a path built by a variable or a subshell is not seen.
 */
import { split } from 'shlex';
import type { EvidenceHow } from '@okstra/schemas/worker-evidence';
import { appendAll } from '@okstra/core';

/** One path a command named: how, by which tool, from which working directory (`null` = the command's own). */
export interface PathRef {
  path: string;
  how: EvidenceHow;
  tool: string;
  /** The directory a relative `path` is relative to, when the command changed into one (`cd x && cat a`). */
  cwd: string | null;
  /** Lines a read opened (`Read` offset/limit), when known. */
  lines?: [number, number];
}

const READERS = new Set([
  'cat',
  'bat',
  'batcat',
  'head',
  'tail',
  'sed',
  'nl',
  'less',
  'more',
  'awk',
  'gawk',
  'wc',
  'cut',
  'sort',
  'uniq',
  'diff',
  'cmp',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'jq',
  'yq',
  'tac',
  'view',
  'vim',
  'vi',
]);
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'zgrep']);
const LISTERS = new Set(['ls', 'find', 'tree', 'fd', 'fdfind', 'stat', 'file', 'du']);
const WRAPPERS = new Set(['sh', 'bash', 'zsh', 'dash']);
const OPERATORS = new Set(['&&', '||', ';', '|', '&', '|&']);
const REDIRECT_OUT = /^[0-9]*(?:>|>>|&>|>&)$/;
/** Options whose value is the next word (`head -n 20`, `grep -e PATTERN`, `rg -g GLOB`), per command; the value is not an operand. */
const TAKES_VALUE: Record<string, RegExp> = {
  head: /^-[nc]$|^--(?:lines|bytes)$/,
  tail: /^-[nc]$|^--(?:lines|bytes)$/,
  sed: /^-[ef]$|^--(?:expression|file)$/,
  awk: /^-[fv]$/,
  cut: /^-[dfcb]$/,
  sort: /^-[tko]$/,
  grep: /^-[efmABCD]$|^--(?:regexp|file|max-count|after-context|before-context|context|include|exclude)$/,
  rg: /^-[efmABCgtTM]$|^--(?:regexp|file|max-count|after-context|before-context|context|glob|type|type-not)$/,
  find: /^-(?:name|iname|path|type|maxdepth|mindepth|newer|size|mtime|regex|exec)$/,
};

/** The path references of a command line (`cwd` is where it ran, when known). */
export function commandRefs(command: string, tool: string, cwd: string | null = null): PathRef[] {
  let words: string[];
  try {
    words = split(command);
  } catch {
    return []; // unbalanced quotes: nothing is certain
  }
  const out: PathRef[] = [];
  let here = cwd;
  for (const simple of simpleCommands(words)) {
    const [head, ...rest] = dropAssignments(simple);
    if (!head) continue;
    const name = head.slice(head.lastIndexOf('/') + 1);
    if (WRAPPERS.has(name)) {
      const c = rest.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w));
      if (c >= 0 && rest[c + 1] !== undefined) appendAll(out, commandRefs(rest[c + 1]!, tool, here));
      continue;
    }
    if (name === 'cd') {
      here = rest[0] ? (rest[0].startsWith('/') || here === null ? rest[0] : `${here}/${rest[0]}`) : here;
      continue;
    }
    if (name === 'git' && rest[0] === 'grep') {
      const operands = operandsOf(rest.slice(1), TAKES_VALUE.grep);
      appendAll(
        out,
        operands.map((p) => ({ path: p, how: 'searched' as const, tool, cwd: here })),
      );
      if (operands.length <= 1) out.push({ path: '.', how: 'searched', tool, cwd: here });
      continue;
    }
    if (name === 'git' && rest[0] === 'show') {
      for (const w of rest.slice(1)) {
        const colon = /^[^-:][^:]*:(.+)$/.exec(w);
        if (colon) out.push({ path: colon[1]!, how: 'read', tool, cwd: here });
      }
      continue;
    }
    const how: EvidenceHow | null = READERS.has(name) ? 'read' : SEARCHERS.has(name) ? 'searched' : LISTERS.has(name) ? 'listed' : null;
    if (!how) continue;
    const operands = operandsOf(rest, TAKES_VALUE[name === 'egrep' || name === 'fgrep' || name === 'zgrep' ? 'grep' : name]);
    for (const p of operands) out.push({ path: p, how, tool, cwd: here });
    // A search with no path operand besides its pattern searches where it runs.
    if (how === 'searched' && operands.length <= 1 && !rest.includes('--files')) out.push({ path: '.', how, tool, cwd: here });
  }
  return out;
}

/** The simple commands of a word list: split at control operators (as words, or trailing a word: `a;`). */
function simpleCommands(words: string[]): string[][] {
  const out: string[][] = [[]];
  for (const w of words) {
    if (OPERATORS.has(w)) {
      out.push([]);
      continue;
    }
    const trail = /^(.*?)(;|&&|\|\|)$/.exec(w);
    if (trail && trail[1] !== '') {
      out.at(-1)!.push(trail[1]!);
      out.push([]);
      continue;
    }
    out.at(-1)!.push(w);
  }
  return out.filter((c) => c.length > 0);
}

function dropAssignments(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const rest = words.slice(i);
  // `sudo`, `env`, `time`, `nice`, `xargs` run the command after them.
  while (rest.length > 0 && ['sudo', 'env', 'time', 'nice', 'nohup', 'command', 'xargs'].includes(rest[0]!)) rest.shift();
  return rest;
}

/** The operands of an argument list: not an option, not an option's value, not a redirection's target (`> out`). */
function operandsOf(args: string[], takesValue?: RegExp): string[] {
  const out: string[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!endOfOptions && a === '--') {
      endOfOptions = true;
      continue;
    }
    if (REDIRECT_OUT.test(a)) {
      i++;
      continue;
    }
    if (a === '<') continue;
    if (!endOfOptions && a.startsWith('-')) {
      if (takesValue?.test(a)) i++;
      continue;
    }
    out.push(a.replace(/^<(?=.)/, ''));
  }
  return out;
}
