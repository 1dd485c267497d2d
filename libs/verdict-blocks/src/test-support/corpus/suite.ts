import { describe, expect, it } from 'vitest';
import { judge, type CorpusAnswer, type CorpusOutcome } from './index.js';

/**
 * The corpus spec of one reader: one test per answer (an `it.fails` for a name in
 * `knownFailing`, the rows a reader change is still to fix), and a test that the
 * failing rows are exactly `knownFailing` and prints the figures (answers, refused,
 * misread, silent-wrong) as `<title> corpus: {…}`.
 */
export function describeCorpus(
  title: string,
  answers: readonly CorpusAnswer[],
  read: (answer: CorpusAnswer) => CorpusOutcome,
  knownFailing: ReadonlySet<string>,
): void {
  describe(`the corpus of real-model answers reads as intended (${title})`, () => {
    for (const answer of answers) {
      const intended = answer.reads ? `read as ${JSON.stringify(answer.reads)}` : `refused: ${answer.refused!.because}`;
      (knownFailing.has(answer.name) ? it.fails : it)(`${answer.name} — ${intended}`, () => {
        expect(judge(answer, read(answer))).toBeNull();
      });
    }
    it('fails exactly on the known-failing rows, and reports the figures', () => {
      const counts: Record<string, number> = { answers: answers.length };
      const failing: string[] = [];
      for (const answer of answers) {
        const wrong = judge(answer, read(answer));
        if (!wrong) continue;
        counts[wrong.kind] = (counts[wrong.kind] ?? 0) + 1;
        failing.push(answer.name);
      }
      // eslint-disable-next-line no-console -- the figures are this spec's report (issue #25)
      console.log(`${JSON.stringify(failing)}\n${title} corpus: ${JSON.stringify(counts)}`);
      expect(failing).toEqual([...knownFailing]);
    });
  });
}
