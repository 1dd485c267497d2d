/**
 * What makes a statement bear on a vote (docs/contracts.md "Which answers give a
 * vote"): the vocabulary, not the layout. A statement bears on a vote when it
 * holds a verdict word of either vocabulary (reverify / gap-vote / plan-verify,
 * libs/schemas vocabulary) or one of its synonyms and negations, a correction or
 * retraction, in the languages workers answer in (English, Korean, Japanese,
 * Chinese). This is a heuristic over natural language, the last resort the
 * guide allows, and its limits point one way: a word it wrongly finds refuses a
 * clear answer (one repair), a word it misses is caught only if the reader's
 * structure rules catch it. It is therefore broad on purpose.
 */

/** Which way a word leans: the finding or item holds (`for`), does not (`against`), cannot be told (`open`). */
export type Polarity = 'for' | 'against' | 'open';

/** The polarity of a reader's verdict word (`SURVIVES-WITH-CAVEAT`, `agree`, `DISAGREE`). */
export function polarityOf(word: string): Polarity {
  const w = word.toUpperCase();
  if (w === 'REFUTED' || w === 'DISAGREE') return 'against';
  if (w === 'UNVERIFIABLE') return 'open';
  return 'for';
}

/** One verdict-bearing word found in a text: the vocabulary word it is (or its polarity only, for a synonym). */
export interface BearingWord {
  /** The vocabulary word (`REFUTED`, `AGREE`) or null for a synonym (`holds`, `유효`, `成立`). */
  word: string | null;
  polarity: Polarity;
  /** As written. */
  text: string;
  index: number;
  /** A negation stands before it (`not refuted`, `cannot be verified`): the polarity is already flipped. */
  negated: boolean;
}

const B = '(?<![\\p{L}\\p{N}_-])';
const E = '(?![\\p{L}\\p{N}_])';
/** The verdict words of every vocabulary and their inflections, longest first. */
const VOCABULARY: ReadonlyArray<readonly [RegExp, string, Polarity]> = [
  [new RegExp(`${B}surviv(?:e|es|ed)[\\s_-]+with[\\s_-]+(?:a[\\s_-]+)?caveats?${E}`, 'giu'), 'SURVIVES-WITH-CAVEAT', 'for'],
  [new RegExp(`${B}disagree(?:s|d|ment)?${E}`, 'giu'), 'DISAGREE', 'against'],
  [new RegExp(`${B}refut(?:e|es|ed|ing|ation)${E}`, 'giu'), 'REFUTED', 'against'],
  [new RegExp(`${B}surviv(?:e|es|ed|ing)${E}`, 'giu'), 'SURVIVES', 'for'],
  [new RegExp(`${B}unverifiable${E}`, 'giu'), 'UNVERIFIABLE', 'open'],
  [new RegExp(`${B}agree(?:s|d)?${E}`, 'giu'), 'AGREE', 'for'],
  [new RegExp(`${B}supplement(?:s|ed)?${E}`, 'giu'), 'SUPPLEMENT', 'for'],
];

/** Words that say the same as a verdict word, in the workers' languages; negative compounds before the words they contain. */
const SYNONYMS: ReadonlyArray<readonly [RegExp, Polarity]> = [
  // open
  [
    /unverified|could(?:n['’]t| not) (?:be )?(?:check|verif|confirm)\w*|can(?:not|['’]t) (?:be )?(?:check|verif|confirm)\w*|unable to (?:check|verify|confirm)|검증 ?불가|확인 ?불가|확인할 수 없|検証不能|検証でき(?:な|ません)|確認でき(?:な|ません)|无法(?:验证|确认|核实)|不能(?:验证|确认)/giu,
    'open',
  ],
  // against
  [
    new RegExp(
      `${B}(?:invalid|incorrect|wrong|bogus|busted|inaccurate|mistaken|false[\\s-]positive|not an? (?:issue|problem|bug)|non-issue|no (?:issue|problem) here|does(?:n['’]t| not) hold(?: up)?|does(?:n['’]t| not) stand)${E}|무효|틀렸|틀림|틀린|잘못|오탐|성립하지 않|유효하지 않|타당하지 않|誤り|間違|無効|成立しな|妥当ではな|不成立|错误|有误|不对|无效|误报|不正确`,
      'giu',
    ),
    'against',
  ],
  // for
  [
    new RegExp(
      `${B}(?:holds?(?: up)?|stands|valid|correct|confirmed|confirms?|legit(?:imate)?|accurate|checks out|sticks?|(?:is|are|it['’]s) (?:real|true))${E}|유효|타당|성립|맞습니다|맞다|맞음|사실입니다|확인됨|확인되었|妥当|正しい|成立|有効|確認され|正确|属实|有效|确认|確認`,
      'giu',
    ),
    'for',
  ],
];

/** A negation before a word flips it: `not refuted`, `nothing refutes it`, `cannot be verified`, `않`, `不`. */
const NEGATION_BEFORE =
  /(?:^|[^\p{L}])(?:not|no|never|nothing|none|neither|nor|cannot|can['’]t|couldn['’]t|could not|isn['’]t|aren['’]t|doesn['’]t|didn['’]t|wasn['’]t|won['’]t|unable|failed|no longer|without)(?:[^\p{L}]|$)|[不没無未]$/iu;
/** A negation after a word that makes it a failed attempt: `tried to refute it and could not`. */
const NEGATION_AFTER = /^\W*(?:\S+\s+){0,3}?(?:and|but)\s+(?:could(?:n['’]t| not)|can(?:not|['’]t)|failed|did(?:n['’]t| not))/iu;

/** Where a clause ends: a sentence stop, a semicolon, a dash between words, a colon. */
const CLAUSE_END = /[.;!?。！？；:：]\s|[.;!?。！？；]$|\s[\u2014\u2013]\s|[。！？；]/u;

/** Every verdict word and synonym of `text`, in order, negations applied. Code spans should be removed first. */
export function bearingWords(text: string): BearingWord[] {
  const found: BearingWord[] = [];
  const taken: Array<[number, number]> = [];
  const free = (a: number, b: number) => !taken.some(([x, y]) => a < y && b > x);
  const add = (m: RegExpMatchArray, word: string | null, polarity: Polarity) => {
    const index = m.index ?? 0;
    if (!free(index, index + m[0].length)) return;
    taken.push([index, index + m[0].length]);
    // A negation counts within the word's own clause only: `… cannot happen. Wait — it survives` is not `cannot survive`.
    const before = text
      .slice(Math.max(0, index - 40), index)
      .split(CLAUSE_END)
      .pop()!;
    const lastWords = before.split(/\s+/).slice(-6).join(' ');
    const after = text.slice(index + m[0].length, index + m[0].length + 60).split(CLAUSE_END)[0];
    const negated = polarity !== 'open' && (NEGATION_BEFORE.test(lastWords) || NEGATION_AFTER.test(after));
    const flipped: Polarity = negated ? (polarity === 'for' ? 'against' : 'for') : polarity;
    found.push({ word: negated ? null : word, polarity: flipped, text: m[0], index, negated });
  };
  for (const [re, word, polarity] of VOCABULARY) for (const m of text.matchAll(re)) add(m, word, polarity);
  for (const [re, polarity] of SYNONYMS) for (const m of text.matchAll(re)) add(m, null, polarity);
  return found.sort((a, b) => a.index - b.index);
}

/** A correction or retraction: the statement takes back what was said (`on second thought`, `I withdraw`, `정정`, `撤回`). */
const RETRACTION = new RegExp(
  [
    `${B}(?:correction(?=\\s*[:：—-])|(?:my|a|one) correction|erratum|retract(?:s|ed|ing|ion)?|i withdraw|withdraw(?:n|ing)? (?:my|the|this|that)|tak(?:e|ing) (?:it |that |this |my \\w+ )?back|scratch (?:that|this|what)|on second thoughts?|on reflection|i was wrong|i misread|i stand corrected|chang(?:e|ing) my (?:verdict|vote|mind|answer)|revis(?:e|ed|ing) my|ignore (?:my|what i|the above)|disregard (?:my|what i|the above))${E}`,
    '^(?:update|updated|edit|edited|revised|revision|amendment|addendum)\\s*[:：]',
    '정정|철회|번복|訂正|撤回|前言を|更正|收回|订正',
  ].join('|'),
  'iu',
);
/** A turn that may start a change of mind; it bears on the vote when a word against the vote follows it. */
const TURN = new RegExp(
  `${B}(?:actually|wait|hmm|re-?reading|looking again|look(?:ing)? closer|on closer (?:look|inspection|reading)|upon further review|after all|having re-?read|but then|in fact)${E}|다시 보니|다시 보면|사실은|実は|やはり|読み直す|よく見ると|其实|不过再看|再看|重新看`,
  'iu',
);

/** The retraction `text` holds, if any. */
export function retractionIn(text: string): string | undefined {
  return RETRACTION.exec(text.trim())?.[0];
}

/** The turn (`actually`, `wait`, `其实`) `text` holds, if any, and where. */
export function turnAt(text: string): { text: string; index: number } | undefined {
  const m = TURN.exec(text);
  return m ? { text: m[0], index: m.index } : undefined;
}

/** A statement about all / every / none / the rest of the ids. */
const QUANTIFIER =
  /(?<![\p{L}])(?:all|every|everything|none|both|the rest|remaining|the others|each of (?:them|these|the))(?![\p{L}])|모든|모두|전부|나머지|全て|すべて|全部|いずれも|残り|所有|其余|均|都/iu;

/** A statement about all / every / none / the rest of the ids (not of anything else: `all writers hold the lock` is not one). */
const IDS_QUANTIFIER =
  /(?<![\p{L}])(?:(?:all|every|none|both|each|the rest|remaining|other)\s+(?:[\p{L}\p{N}]+\s+){0,3}?(?:findings?|items?|gaps?|ids?|ones|of (?:them|these|those|the above))|all of (?:the above|them|these)|the rest|everything above|they all|these all)(?![\p{L}])|모두|전부|나머지|모든 (?:항목|발견|지적)|全て|すべて|いずれも|残り|全部|所有|其余|均/iu;

/** The quantifier over the ids `text` holds, if any. */
export function idsQuantifierIn(text: string): string | undefined {
  return IDS_QUANTIFIER.exec(text)?.[0];
}

/** The quantifier over ids `text` holds, if any. */
export function quantifierIn(text: string): string | undefined {
  return QUANTIFIER.exec(text)?.[0];
}

/** Emoji that lean one way when they stand beside a verdict (`REFUTED ✅` says the opposite of itself). */
const EMOJI_FOR = /[\u2705\u2713\u2714\u2b55\u{1F44D}\u{1F7E2}]/u;
const EMOJI_AGAINST = /[\u274c\u274e\u2716\u2717\u2718\u{1F44E}\u{1F534}\u{1F6AB}\u26d4]/u;
const EMOJI_CAUTION = /[\u26a0\u{1F7E1}\u{1F7E0}]/u;

/**
 * A decoration on a verdict line or heading that leans another way than the word
 * (`REFUTED ✅`, `SURVIVES ❌`, a caution mark on a vote with no limit), if any.
 */
export function contraryDecoration(line: string, word: string): string | undefined {
  const polarity = polarityOf(word);
  const caveat = /CAVEAT|SUPPLEMENT/i.test(word);
  const m = EMOJI_FOR.exec(line) ?? EMOJI_AGAINST.exec(line) ?? EMOJI_CAUTION.exec(line);
  if (!m) return undefined;
  const leans: Polarity | 'caution' = EMOJI_FOR.test(m[0]) ? 'for' : EMOJI_AGAINST.test(m[0]) ? 'against' : 'caution';
  if (leans === 'caution') return caveat ? undefined : m[0];
  return leans === polarity ? undefined : m[0];
}
