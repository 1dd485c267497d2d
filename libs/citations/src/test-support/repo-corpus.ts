// Answers about this repository at a pinned commit, for the citation checker's corpus spec: hand-written
// answers in the shapes workers write, and a seeded generator of citations drawn from the commit's real
// lines — true ones in every written form, and the wrong kinds (off by some lines, renamed files,
// invented files, past the end, a quote of other code), each labelled with what the checker must say.
import type { SourceTree } from '../source-tree.js';
import { QUOTE_WINDOW } from '../quotes.js';
import { seededRandom } from '@okstra/core/test-support';

/** The commit the corpus is about (this repository's history; the spec reads it with git). */
export const PINNED_COMMIT = 'a2d3f1337d51ef88efdedb9cf78bb08cbcb6ce3a';

/** What a case is, and so what the checker must find. */
export type CaseClass = 'true' | 'off-by-some' | 'renamed' | 'invented' | 'past-end' | 'quote-mismatch';

export interface CorpusCase {
  class: CaseClass;
  /** The citation the class is about (an answer may carry others, labelled in their own case). */
  citation: string;
  /** The whole answer (`<ROOT>` stands for the project root's absolute path). */
  markdown: string;
}

/** Hand-written answers about {@link PINNED_COMMIT}, one case per citation. */
export const HAND_WRITTEN: CorpusCase[] = [
  {
    class: 'true',
    citation: 'apps/okstra-team/src/wrapper/run-provider.ts:6',
    markdown: 'The wrapper keeps only the last 4 KiB of stderr: `apps/okstra-team/src/wrapper/run-provider.ts:6`: `const STDERR_TAIL_BYTES = 4096;`.',
  },
  { class: 'true', citation: 'run-provider.ts:8', markdown: 'Leftover children get two seconds (`run-provider.ts:8`) before they are killed.' },
  {
    class: 'true',
    citation: 'libs/audit-rules/src/worker-audit/ledger.ts:11',
    markdown:
      "The marker is matched as a whole line in `libs/audit-rules/src/worker-audit/ledger.ts:11`:\n\n```ts\nexport const EVIDENCE_LEDGER_MARKER = '<!-- okstra:evidence-ledger required-v1 -->';\n```\n",
  },
  { class: 'true', citation: './libs/paths/src/containment.ts:56:17', markdown: '`projectRootOf` is at `./libs/paths/src/containment.ts:56:17`.' },
  { class: 'true', citation: '<ROOT>/libs/core/src/exit-codes.ts:21', markdown: 'Success is `<ROOT>/libs/core/src/exit-codes.ts:21`: `OK: 0,`' },
  {
    class: 'off-by-some',
    citation: 'libs/paths/src/containment.ts:22',
    markdown: 'Containment is lexical first: `libs/paths/src/containment.ts:22`: `export function isInside(root: string, candidate: string): boolean {`',
  },
  { class: 'renamed', citation: 'libs/paths/src/contain.ts:39', markdown: 'See `libs/paths/src/contain.ts:39` for the prefix test.' },
  {
    class: 'renamed',
    citation: 'libs/audit-rules/src/worker-audit/evidence-ledger.ts:11',
    markdown: 'The marker lives in `libs/audit-rules/src/worker-audit/evidence-ledger.ts:11`.',
  },
  { class: 'invented', citation: 'libs/core/src/retry-policy.ts:12', markdown: 'Retries are capped at three (`libs/core/src/retry-policy.ts:12`).' },
  {
    class: 'invented',
    citation: 'apps/okstra-team/src/wrapper/backoff.ts:5-9',
    markdown: 'The backoff is linear: `apps/okstra-team/src/wrapper/backoff.ts:5-9`.',
  },
  { class: 'past-end', citation: 'libs/heartbeat/src/index.ts:48', markdown: 'The cadence budget is declared at `libs/heartbeat/src/index.ts:48`.' },
  { class: 'past-end', citation: 'libs/core/src/exit-codes.ts:29-35', markdown: 'The exit codes end at `libs/core/src/exit-codes.ts:29-35`.' },
  { class: 'quote-mismatch', citation: 'libs/core/src/exit-codes.ts:23', markdown: 'Invalid input exits 1: `libs/core/src/exit-codes.ts:23`: `INVALID: 1,`' },
];

const squash = (s: string) => s.replace(/\s+/g, '');
/** A line worth quoting: some code, no backtick (it must fit in a code span), not only punctuation. */
const quotable = (line: string) => squash(line).length >= 12 && !line.includes('`') && /[A-Za-z]{3}/.test(line);
const WORDS = ['retry', 'policy', 'refund', 'ledger', 'sweeper', 'budget', 'socket', 'cache', 'gateway', 'session', 'window', 'marker'];

/**
 * `perClass` cases of each class over the source files of `tree` (TypeScript and .mjs, outside
 * `.okstra/` and `examples/`), seeded. A true case cites a quotable line in one of the written
 * forms (inline quote, fenced quote, `./`, the root's absolute prefix, `:col`, a range, a unique
 * bare name); the wrong kinds are built from a true one and re-checked against the tree so each
 * is what its label says (an off-by-some quote that also occurs at the shifted lines is dropped).
 */
export function generateCases(tree: SourceTree, perClass: number, seed = 42): CorpusCase[] {
  const rand = seededRandom(seed); // the same corpus on every run
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const all = tree.files();
  const sources = all.filter((f) => /\.(ts|mjs)$/.test(f) && !f.startsWith('examples/') && !f.startsWith('.okstra/'));
  const bases = new Map<string, number>();
  for (const f of all) {
    const b = f.slice(f.lastIndexOf('/') + 1);
    bases.set(b, (bases.get(b) ?? 0) + 1);
  }
  const linesOf = (f: string) => {
    const l = tree.lookup(f);
    return l.kind === 'file' ? l.lines : [];
  };
  const exists = (p: string) => all.includes(p) || all.some((f) => f.endsWith(`/${p}`));
  const out: CorpusCase[] = [];
  const want = (c: CaseClass) => out.filter((x) => x.class === c).length < perClass;
  let guard = 0;
  while (
    (want('true') || want('off-by-some') || want('renamed') || want('invented') || want('past-end') || want('quote-mismatch')) &&
    guard++ < perClass * 200
  ) {
    const file = pick(sources);
    const lines = linesOf(file);
    const candidates = lines.map((l, i) => i + 1).filter((n) => quotable(lines[n - 1]!));
    if (candidates.length === 0) continue;
    const n = pick(candidates);
    const code = lines[n - 1]!.trim();
    const base = file.slice(file.lastIndexOf('/') + 1);
    const fenceable = !lines.slice(n - 1, n + 2).some((l) => /```|~~~/.test(l));
    const form = ((f) => (f === 1 && !fenceable ? 0 : f))(Math.floor(rand() * 7));
    if (want('true')) {
      const md = [
        `The call is at \`${file}:${n}\`: \`${code}\`.`,
        `As \`${file}:${n}\` shows:\n\n\`\`\`ts\n${lines.slice(n - 1, Math.min(lines.length, n + 2)).join('\n')}\n\`\`\`\n`,
        `See \`./${file}:${n}\`.`,
        `See \`<ROOT>/${file}:${n}\` is \`${code}\`.`,
        `At \`${file}:${n}:${1 + (lines[n - 1]!.length - lines[n - 1]!.trimStart().length)}\`, \`${code}\`.`,
        `The block \`${file}:${n}-${Math.min(lines.length, n + 4)}\` holds it.`,
        bases.get(base) === 1 ? `Then \`${base}:${n}\`: \`${code}\`.` : `Then \`${file}:${n}\`.`,
      ][form]!;
      out.push({ class: 'true', citation: /`([^`]*:[0-9][^`]*)`/.exec(md)![1]!, markdown: md });
    }
    if (want('off-by-some')) {
      const shift = (rand() < 0.5 ? -1 : 1) * (QUOTE_WINDOW + 1 + Math.floor(rand() * 40));
      const m = n + shift;
      const window = lines
        .slice(Math.max(0, m - 1 - QUOTE_WINDOW), m + QUOTE_WINDOW)
        .map(squash)
        .join('');
      if (m >= 1 && m <= lines.length && !window.includes(squash(code)))
        out.push({ class: 'off-by-some', citation: `${file}:${m}`, markdown: `It happens at \`${file}:${m}\`: \`${code}\`.` });
    }
    if (want('renamed')) {
      const ext = /\.\w+$/.exec(base)![0];
      const stem = base.slice(0, -ext.length);
      const name = pick([
        `${stem}s${ext}`,
        `${stem}-old${ext}`,
        `${stem}${ext === '.ts' ? '.js' : '.ts'}`,
        `${stem}-${pick(WORDS)}${ext}`,
        `${stem.replace(/-/g, '_')}${ext}`,
      ]);
      const renamed = `${file.slice(0, file.length - base.length)}${name}`;
      if (renamed !== file && !exists(renamed)) out.push({ class: 'renamed', citation: `${renamed}:${n}`, markdown: `Defined in \`${renamed}:${n}\`.` });
    }
    if (want('invented')) {
      const dir = file.slice(0, file.lastIndexOf('/'));
      const invented = `${dir}/${pick(WORDS)}-${pick(WORDS)}.ts`;
      if (!exists(invented)) out.push({ class: 'invented', citation: `${invented}:${n}`, markdown: `The guard is \`${invented}:${n}\`.` });
    }
    if (want('past-end')) {
      const past = lines.length + 1 + Math.floor(rand() * 60);
      out.push({ class: 'past-end', citation: `${file}:${past}`, markdown: `Look at \`${file}:${past}\`.` });
    }
    if (want('quote-mismatch')) {
      const other = linesOf(pick(sources)).filter(quotable);
      const foreign = other.length ? pick(other).trim() : '';
      const window = lines
        .slice(Math.max(0, n - 1 - QUOTE_WINDOW), n + QUOTE_WINDOW)
        .map(squash)
        .join('');
      if (foreign && !window.includes(squash(foreign)))
        out.push({ class: 'quote-mismatch', citation: `${file}:${n}`, markdown: `Here \`${file}:${n}\` reads \`${foreign}\`.` });
    }
  }
  return out;
}
