import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { checkCitations, commitTree, type CitationReport } from './index.js';
import { generateCases, HAND_WRITTEN, PINNED_COMMIT, type CaseClass, type CorpusCase } from './test-support/repo-corpus.js';

// The citation checker on answers about this repository at a pinned commit (issue 42 "Done when"):
// no invented, renamed or past-the-end citation exists, no off-by-some or misquoted one holds, and
// every true one holds — read from the commit with git, whatever the working tree says now.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const tree = commitTree(ROOT, PINNED_COMMIT);

function judge(c: CorpusCase): CitationReport {
  const md = c.markdown.replaceAll('<ROOT>', ROOT);
  const citation = c.citation.replaceAll('<ROOT>', ROOT);
  const report = checkCitations(md, { root: ROOT, tree, evidence: null }).find((r) => r.citation === citation);
  if (!report) throw new Error(`the checker did not see ${citation} in: ${md}`);
  return report;
}

/** What the checker must say of each class. */
const EXPECTED: Record<CaseClass, (r: CitationReport) => boolean> = {
  true: (r) => r.holds && r.exists && r.inRange === true,
  'off-by-some': (r) => !r.holds && r.problem === 'quote-mismatch',
  renamed: (r) => !r.holds && !r.exists && r.problem === 'missing',
  invented: (r) => !r.holds && !r.exists && r.problem === 'missing',
  'past-end': (r) => !r.holds && r.exists && r.inRange === false,
  'quote-mismatch': (r) => !r.holds && r.problem === 'quote-mismatch',
};

function figures(cases: CorpusCase[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const cls of Object.keys(EXPECTED) as CaseClass[]) {
    const of = cases.filter((c) => c.class === cls);
    out[cls] = `${of.filter((c) => EXPECTED[cls](judge(c))).length}/${of.length}`;
  }
  return out;
}

describe(`citations about this repository at ${PINNED_COMMIT.slice(0, 7)}`, () => {
  it('hand-written answers: every true citation holds, every wrong one is caught for its reason', () => {
    for (const c of HAND_WRITTEN)
      expect({ case: c.citation, report: judge(c) }, c.class).toSatisfy((x: { report: CitationReport }) => EXPECTED[c.class](x.report));
  });

  it('600 generated citations (100 per class, seeded): 0 invented / renamed / past-the-end pass, 0 misquoted pass, 0 true fail', () => {
    const cases = generateCases(tree, 100);
    expect(cases.length).toBe(600);
    expect(figures(cases)).toEqual({
      true: '100/100',
      'off-by-some': '100/100',
      renamed: '100/100',
      invented: '100/100',
      'past-end': '100/100',
      'quote-mismatch': '100/100',
    });
  });

  it('another seed gives other citations and the same verdicts', () => {
    const cases = generateCases(tree, 50, 7);
    expect(Object.values(figures(cases))).toEqual(Array(6).fill('50/50'));
  });
});
