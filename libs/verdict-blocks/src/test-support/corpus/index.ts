// The corpus of real-model worker answers (issue #25 item 6): every form of
// forms.ts in every provider's voice of voices.ts, each with its intended
// reading. The collectors' corpus specs (libs/convergence, libs/plan-items)
// read every answer and compare; `judge` names what went wrong.
import { FORMS, type CorpusForm, type CorpusReader } from './forms.js';
import { CORPUS_PROVIDERS, VOICES, type CorpusProvider } from './voices.js';

export { CORPUS_PROVIDERS, VOICES } from './voices.js';
export type { CorpusProvider, Voice } from './voices.js';
export type { CorpusForm, CorpusReader } from './forms.js';

/** One answer: a form in one provider's voice. `name` is `<provider>/<form>`. */
export interface CorpusAnswer extends CorpusForm {
  provider: CorpusProvider;
  name: string;
}

/** Every answer, provider by provider, forms in order. */
export const CORPUS: readonly CorpusAnswer[] = CORPUS_PROVIDERS.flatMap((provider) =>
  FORMS.map((make) => {
    const form = make(VOICES[provider]);
    return { ...form, provider, name: `${provider}/${form.form}` };
  }),
);

/** The answers one reader reads. */
export function corpusFor(reader: CorpusReader | readonly CorpusReader[]): CorpusAnswer[] {
  const readers: readonly CorpusReader[] = typeof reader === 'string' ? [reader] : reader;
  return CORPUS.filter((a) => readers.includes(a.reader));
}

/** What a reader did with one answer: the votes it read (id → reading, id → Basis), or its exit-2 message. */
export type CorpusOutcome = { votes: Record<string, string>; bases: Record<string, string> } | { refusal: string };

/**
 * How an outcome differs from the intended reading, or null when it is that reading.
 * `silent-wrong`: exit 0 for an answer that must be refused; `misread`: exit 0 with
 * another vote (or a Basis missing what it holds); `refused`: exit 2 for a clear
 * answer; `wrong-refusal`: exit 2 with a message that does not name the problem.
 */
export function judge(answer: CorpusAnswer, outcome: CorpusOutcome): { kind: 'silent-wrong' | 'misread' | 'refused' | 'wrong-refusal'; detail: string } | null {
  if ('refusal' in outcome) {
    if (answer.reads) return { kind: 'refused', detail: outcome.refusal };
    return answer.refused!.message.test(outcome.refusal) ? null : { kind: 'wrong-refusal', detail: outcome.refusal };
  }
  if (answer.refused) return { kind: 'silent-wrong', detail: `read ${JSON.stringify(outcome.votes)}; expected refused: ${answer.refused.because}` };
  for (const [id, want] of Object.entries(answer.reads!)) {
    if (outcome.votes[id] !== want) return { kind: 'misread', detail: `${id}: read ${outcome.votes[id]}, expected ${want}` };
  }
  for (const [id, parts] of Object.entries(answer.basisHas ?? {})) {
    const basis = outcome.bases[id] ?? '';
    let from = 0;
    for (const part of parts) {
      const at = basis.indexOf(part, from);
      if (at < 0) return { kind: 'misread', detail: `${id}: Basis lacks '${part}' (in order): ${JSON.stringify(basis)}` };
      from = at + part.length;
    }
  }
  return null;
}
export { describeCorpus } from './suite.js';
export { HABITS_AND_TRAPS, habitsAndTrapsFor } from './habits-and-traps.js';
export { TEXT_AROUND_BLOCKS, textAroundBlocksFor } from './text-around-blocks.js';
export { ruleNeighbours, type Neighbour } from '../neighbours.js';
export { restatedAnswer } from '../restatement.js';
export { readVoteFigures, type ReadVoteFigures } from '../read-votes.js';
