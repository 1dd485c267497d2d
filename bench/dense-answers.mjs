// A generator of dense worker answers (issue #25 item 5): two vote blocks whose
// first Basis holds, in a seeded random order, every Markdown shape a model
// writes in bulk — bullet and numbered lists (nested, holding quotes), block
// quotes (nested, holding lists), code fences holding fake blocks, bold lines
// standing as headings, tables naming ids, long lines of inline markup, and
// lines of many ids. Every id-bearing line is one the reader must look at (a
// "relevant" line of libs/verdict-blocks linear.ts), so no chunk is skipped.
// The reading of every such answer is the same: F-001 REFUTED, F-002 SURVIVES.

/** Pieces of a dense Basis; each ends with a blank line, so any order is valid Markdown. */
const PIECES = {
  bold: (p) => `**${p.pick(['Evidence', 'Trace', 'Why it holds', 'Counter-check'])} for ${p.id()}**\n\n`,
  table: (p) =>
    `| id | seen | note |\n|---|---|---|\n${Array.from({ length: 6 }, () => `| ${p.id()} | ${p.pick(['yes', 'read', 'n/a'])} | \`src/x.ts:${p.int(900)}\` **b** |`).join('\n')}\n\n`,
  list: (p) =>
    `- ${p.id()} re-read \`src/q.ts:88\` **first**\n  - nested ${p.id()} _x_\n    > quoted ${p.id()}\n- item [l](https://x.test/${p.id()})\n1. step ${p.id()}\n2. step\n\n`,
  quote: (p) => `> ${p.id()} quoted\n> > nested **bold** ${p.id()}\n> - list in quote\n\n`,
  fence: (p) => '```ts\n' + `const a = "${p.id()}"; // ### ${p.id()}\n**Verdict**: SURVIVES\n` + '```\n\n',
  long: (p) => `${Array.from({ length: 60 }, () => `${p.id()} **w** \`c\` _e_`).join(' ')}\n\n`,
  ids: (p) => `${Array.from({ length: 40 }, () => p.id()).join(', ')}\n\n`,
};

/** The shapes {@link denseAnswer} can be limited to. */
export const DENSE_SHAPES = Object.keys(PIECES);

/**
 * A dense answer of at most `bytes` (UTF-8; ASCII here) — close to it — built from
 * `shapes` (default all) with a seeded PRNG (same seed, same text).
 */
export function denseAnswer(bytes, { seed = 1, shapes = DENSE_SHAPES } = {}) {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const p = {
    int: (n) => Math.floor(next() * n),
    pick: (a) => a[Math.floor(next() * a.length)],
    id: () => `F-${String(3 + Math.floor(next() * 997)).padStart(3, '0')}`,
  };
  const head = '### F-001\n**Verdict**: REFUTED\n**Basis**: start\n\n';
  const tail = '\n### F-002\n**Verdict**: SURVIVES\n**Basis**: ok\n';
  const parts = [];
  let n = head.length + tail.length;
  for (;;) {
    const piece = PIECES[p.pick(shapes)](p);
    if (n + piece.length > bytes) break;
    parts.push(piece);
    n += piece.length;
  }
  return head + parts.join('') + tail;
}
