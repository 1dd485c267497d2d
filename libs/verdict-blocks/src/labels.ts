/**
 * Field labels in the languages workers answer in (docs/contracts.md "Which
 * answers give a vote"): each spelling is read as the label the prompts teach.
 * A label is the name of a field, never a vote, so spelling it in the worker's
 * language changes nothing a reader decides; the verdict words stay the
 * vocabulary's own (libs/schemas vocabulary).
 */
export const LABEL_SPELLINGS: Readonly<Record<string, string>> = {
  // Verdict: ko, ja, zh.
  판정: 'verdict',
  판단: 'verdict',
  평결: 'verdict',
  判定: 'verdict',
  判断: 'verdict',
  裁定: 'verdict',
  结论: 'verdict',
  結論: 'verdict',
  // Basis: en, ko, ja, zh.
  reason: 'basis',
  근거: 'basis',
  이유: 'basis',
  根拠: 'basis',
  理由: 'basis',
  依据: 'basis',
  根据: 'basis',
  // Fixability: ko, ja, zh.
  '수정 가능성': 'fixability',
  수정가능성: 'fixability',
  修正可能性: 'fixability',
  可修复性: 'fixability',
};

/** A field label lowercased, trimmed, inner whitespace collapsed, and read in the prompts' spelling. */
export function normalizeLabel(label: string): string {
  const key = label.replace(/\s+/g, ' ').trim().toLowerCase();
  return LABEL_SPELLINGS[key] ?? key;
}

/** Every spelling of the given canonical labels (the labels themselves included), for a line-relevance pattern. */
export function labelSpellings(labels: readonly string[]): string[] {
  const canonical = new Set(labels.map((l) => l.toLowerCase()));
  return [...labels, ...Object.keys(LABEL_SPELLINGS).filter((s) => canonical.has(LABEL_SPELLINGS[s]))];
}
