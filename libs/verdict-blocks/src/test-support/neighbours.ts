// The rule of docs/contracts.md "Which answers give a vote", generated from both
// sides: every marker x label spelling x id spelling that is a block (read), and
// next to each the nearest answers that are not (refused) — two ids in a marker,
// an ambiguous or foreign id, a label with no separator, a line outside the block
// or inside its Basis that bears on the vote, a contrary decoration, a cut-off end.

/** One generated answer: the dispatched ids, the text, and the reading (votes) or the refusal it must get. */
export interface Neighbour {
  name: string;
  ids: readonly string[];
  text: string;
  reads?: Readonly<Record<string, string>>;
  /** What the exit-2 message must match. */
  refused?: RegExp;
}

const IDS = ['F-001', 'F-002'] as const;
const READ = { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } as const;
const BASIS = {
  'F-001': '`src/queue.ts:88` takes the lock before reading `head`, so the interleaving cannot happen.',
  'F-002': '`src/http/client.ts:42` retries 503s without reading `Retry-After`.',
} as const;

/** Label spellings: [verdict label, basis label], each with its separator. */
const LABELS: ReadonlyArray<readonly [string, string, string]> = [
  ['bold-colon', '**Verdict**: ', '**Basis**: '],
  ['plain-colon', 'Verdict: ', 'Basis: '],
  ['equals', 'Verdict = ', 'Basis = '],
  ['em-dash', 'Verdict — ', 'Basis — '],
  ['korean', '**판정**: ', '**근거**: '],
  ['japanese', '**判定**：', '**根拠**：'],
  ['chinese', '**结论**：', '**依据**：'],
];

/** Markers: how a block of `id` opens, and how its field lines are indented. */
const MARKERS: ReadonlyArray<readonly [string, (id: string, n: number) => string, string]> = [
  ['h2', (id) => `## ${id}`, ''],
  ['h3', (id) => `### ${id}`, ''],
  ['h4', (id) => `#### ${id} — a title`, ''],
  ['numbered-item', (id, n) => `${n}. **${id}**`, '   '],
  ['bulleted-item', (id) => `- ${id}`, '  '],
  ['bold-line', (id) => `**${id}**`, ''],
];

/** Id spellings: how the dispatched id is written. */
const SPELLINGS: ReadonlyArray<readonly [string, (id: string) => string]> = [
  ['exact', (id) => id],
  ['lower-case', (id) => id.toLowerCase()],
  ['unpadded', (id) => id.replace(/-0+(\d)/, '-$1')],
  ['over-padded', (id) => id.replace(/-(\d+)$/, '-0$1')],
];

function answer(
  marker: (id: string, n: number) => string,
  indent: string,
  labels: readonly [string, string],
  spell: (id: string) => string = (id) => id,
  tweak: { verdict?: Partial<Record<string, string>>; basisTail?: Partial<Record<string, string>> } = {},
): string {
  return IDS.map((id, i) => {
    const verdict = tweak.verdict?.[id] ?? READ[id];
    const tail = tweak.basisTail?.[id] ?? '';
    return `${marker(spell(id), i + 1)}\n${indent}${labels[0]}${verdict}\n${indent}${labels[1]}${BASIS[id]}${tail}\n`;
  }).join('\n');
}

/** Every generated answer, the read side first, then the refused neighbours. */
export function ruleNeighbours(): Neighbour[] {
  const out: Neighbour[] = [];
  for (const [m, marker, indent] of MARKERS) {
    for (const [l, v, b] of LABELS)
      for (const [s, spell] of SPELLINGS) out.push({ name: `read: ${m} / ${l} / ${s}`, ids: IDS, text: answer(marker, indent, [v, b], spell), reads: READ });
    const plain = answer(marker, indent, ['**Verdict**: ', '**Basis**: ']);
    const around = (name: string, text: string, refused?: RegExp) =>
      out.push(refused ? { name: `refused: ${m} / ${name}`, ids: IDS, text, refused } : { name: `read: ${m} / ${name}`, ids: IDS, text, reads: READ });
    // The id: two in one marker, ambiguous padding, another id.
    around(
      'two ids in one marker',
      answer((id, n) => marker(id === 'F-001' ? 'F-001, F-002' : id, n), indent, ['**Verdict**: ', '**Basis**: ']),
      /F-00[12]/,
    );
    out.push({
      name: `refused: ${m} / padding matches two ids`,
      ids: ['F-001', 'F-01', 'F-002'],
      text: answer(marker, indent, ['**Verdict**: ', '**Basis**: '], (id) => id.replace(/-0+(\d)/, '-$1')),
      refused: /F-0?01/,
    });
    around(
      'another id (F-0011)',
      answer(marker, indent, ['**Verdict**: ', '**Basis**: '], (id) => (id === 'F-001' ? 'F-0011' : id)),
      /F-001/,
    );
    around('label with no separator', answer(marker, indent, ['**Verdict** ', '**Basis**: ']), /F-00[12]/);
    // Around the blocks: a summary that restates, and its neighbours that do not.
    around('summary restating each vote', `${plain}\n## Summary\n\n- F-001: REFUTED\n- F-002: SURVIVES\n`);
    around('summary contradicting a vote', `${plain}\n## Summary\n\n- F-001: SURVIVES\n- F-002: SURVIVES\n`, /F-001/);
    around('closing line over every id', `${plain}\nOverall, all findings hold up.\n`, /hold up/);
    around('closing line in Korean', `${plain}\n요약: 모두 유효합니다.\n`, /유효/);
    around('postscript taking a vote back', `${plain}\nP.S. F-001 is not refuted after all.\n`, /F-001/);
    around('quoted correction', `${plain}\n> Correction: F-002 should be REFUTED.\n`, /F-002|Correction/);
    around('retraction in Japanese', `${plain}\nF-002 の判定は撤回します。\n`, /撤回/);
    // Inside a Basis: another reviewer quoted, and its unquoted neighbour; a change of mind.
    around(
      'Basis quoting another reviewer',
      answer(marker, indent, ['**Verdict**: ', '**Basis**: '], undefined, { basisTail: { 'F-002': `\n\n${indent}> codex: REFUTED` } }),
    );
    around(
      'Basis naming another verdict',
      answer(marker, indent, ['**Verdict**: ', '**Basis**: '], undefined, { basisTail: { 'F-002': ' codex said REFUTED.' } }),
      /REFUTED/,
    );
    around(
      'Basis ending in a change of mind',
      answer(marker, indent, ['**Verdict**: ', '**Basis**: '], undefined, { basisTail: { 'F-001': ' Wait — it survives after all.' } }),
      /F-001/,
    );
    // The verdict line: a decoration that agrees, and one that leans the other way.
    around(
      'decoration agreeing',
      answer(marker, indent, ['**Verdict**: ', '**Basis**: '], undefined, { verdict: { 'F-001': 'REFUTED ❌', 'F-002': 'SURVIVES ✅' } }),
    );
    around(
      'decoration leaning the other way',
      answer(marker, indent, ['**Verdict**: ', '**Basis**: '], undefined, { verdict: { 'F-001': 'REFUTED ✅' } }),
      /F-001/,
    );
    // The end: whole, and cut off mid-token.
    around('cut off mid-token', plain.replace(/`Retry-After`\.\n$/, '`Retry-Af'), /cut off/);
  }
  // Table rows as markers.
  const table = (rows: string) => `| Finding | Verdict | Basis |\n|---|---|---|\n${rows}`;
  out.push({
    name: 'read: table rows',
    ids: IDS,
    text: table(`| F-001 | REFUTED | ${BASIS['F-001']} |\n| F-002 | SURVIVES | ${BASIS['F-002']} |\n`),
    reads: READ,
  });
  out.push({
    name: 'read: table rows, unpadded ids',
    ids: IDS,
    text: table(`| F-1 | REFUTED | ${BASIS['F-001']} |\n| F-2 | SURVIVES | ${BASIS['F-002']} |\n`),
    reads: READ,
  });
  out.push({
    name: 'refused: table rows and a closing line over every id',
    ids: IDS,
    text: `${table(`| F-001 | REFUTED | ${BASIS['F-001']} |\n| F-002 | SURVIVES | ${BASIS['F-002']} |\n`)}\nNone of these are valid.\n`,
    refused: /valid/,
  });
  return out;
}
