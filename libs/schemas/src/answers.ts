import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { Timestamp, WorkerId } from './common.js';
import { DispatchKind } from './jobs-file.js';
import { BreakageKind, Fixability, PlanVerdictWord } from './implementation-planning.js';
import { CONVERGENCE_VERDICT_WORDS, repairedDispatchKind, retryDispatchKind } from './vocabulary.js';

/**
 * Schema-bound answers (docs/contracts.md "Answer objects"): the round answers a
 * cli-wrapper worker of a schema-capable provider gives as a JSON object bound
 * to a JSON Schema generated from the zod shapes below (one home: the wrapper
 * validates the object with them and the collectors read it with them).
 * `reverify` (a convergence re-verification round), `gap-vote` (the
 * analysers' vote on the critic's gaps) and `plan-verify` (plan-body
 * verification) are the three.
 */
export const ANSWER_KINDS = ['reverify', 'gap-vote', 'plan-verify'] as const;
export const AnswerKind = z.enum(ANSWER_KINDS);
export type AnswerKind = z.infer<typeof AnswerKind>;

/**
 * The answer kind of a dispatch kind, or null for a dispatch whose answer is
 * not a vote: `reverify-r<N>` → reverify, `gap-vote`, `plan-verify`, each with
 * its retry (`…-retry`) and its repair (`repair-…`).
 */
export function answerKindOfDispatch(kind: string): AnswerKind | null {
  const repaired = repairedDispatchKind(kind);
  if (repaired !== undefined) return answerKindOfDispatch(repaired);
  const retry = retryDispatchKind('');
  const round = kind.endsWith(retry) ? kind.slice(0, -retry.length) : kind;
  if (/^reverify-r[1-9][0-9]*$/.test(round)) return 'reverify';
  return round === 'gap-vote' || round === 'plan-verify' ? round : null;
}

/** Every convergence verdict word of both modes (the collector holds a vote to its run's mode). */
const CONVERGENCE_WORDS = [...new Set(Object.values(CONVERGENCE_VERDICT_WORDS).flatMap((words) => Object.keys(words)))] as [string, ...string[]];

/** A text a vote cannot do without: not empty, not only spaces. JSON Schema keeps only `string` (the wrapper checks the rest). */
const Said = (what: string) => z.string().check(z.refine((s) => s.trim() !== '', `an empty ${what}`));

/** One vote on one id of a reverify or gap-vote batch. */
export const ConvergenceVoteObject = z.strictObject({
  id: z.string().check(z.describe('the dispatched id this vote is on, exactly as the prompt lists it (e.g. F-001, C-002)')),
  verdict: z.enum(CONVERGENCE_WORDS).check(z.describe("the verdict word; use the run's mode words the prompt names")),
  basis: Said('basis').check(z.describe('why: what you read (file:line) and what it shows')),
});
export type ConvergenceVoteObject = z.infer<typeof ConvergenceVoteObject>;

/** The reverify and gap-vote answer: one vote per dispatched id. */
export const ConvergenceAnswer = z
  .strictObject({ votes: z.array(ConvergenceVoteObject).check(z.describe('one vote per dispatched id, each id once')) })
  .check(z.describe('okstra vote answer: one verdict per dispatched id'));
export type ConvergenceAnswer = z.infer<typeof ConvergenceAnswer>;

/** One plan-verify vote (docs/plan-items.md "Verdict grammar"): a DISAGREE carries a breakage kind and a fixability, the others neither. */
export const PlanVoteObject = z
  .strictObject({
    id: z.string().check(z.describe('the plan item id, exactly as the prompt lists it (e.g. P-Step-1-2)')),
    verdict: PlanVerdictWord,
    breakageKind: z.nullable(BreakageKind).check(z.describe('DISAGREE only: the breakage kind a-e; null otherwise')),
    fixability: z.nullable(Fixability).check(z.describe('DISAGREE only: in-place, replan or needs-clarification; null otherwise')),
    basis: Said('basis').check(z.describe('why: what you read and what it shows')),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.verdict === 'DISAGREE' && (v.breakageKind === null || v.fixability === null))
        ctx.addIssue({
          code: 'custom',
          path: [v.breakageKind === null ? 'breakageKind' : 'fixability'],
          message: 'a DISAGREE needs a breakage kind and a fixability',
        });
      if (v.verdict !== 'DISAGREE' && (v.breakageKind !== null || v.fixability !== null))
        ctx.addIssue({
          code: 'custom',
          path: [v.breakageKind !== null ? 'breakageKind' : 'fixability'],
          message: `${v.verdict} carries no breakage kind or fixability`,
        });
    }),
  );
export type PlanVoteObject = z.infer<typeof PlanVoteObject>;

/** The plan-verify answer: one vote per queued plan item. */
export const PlanVerifyAnswer = z
  .strictObject({ votes: z.array(PlanVoteObject).check(z.describe('one vote per plan item, each id once')) })
  .check(z.describe('okstra plan-verify answer: one verdict per plan item'));
export type PlanVerifyAnswer = z.infer<typeof PlanVerifyAnswer>;

/** The zod shape of each answer kind. */
export const ANSWER_SHAPES = { reverify: ConvergenceAnswer, 'gap-vote': ConvergenceAnswer, 'plan-verify': PlanVerifyAnswer } as const;
export type AnswerObject = ConvergenceAnswer | PlanVerifyAnswer;

/**
 * The JSON Schema a schema-bound launch of `kind` hands its provider CLI,
 * generated from {@link ANSWER_SHAPES} (draft 2020-12, without `$schema`).
 * It keeps to what both providers' APIs take (docs/providers.md "Structured
 * output"): the root an object; every object `additionalProperties: false`
 * with every property `required` (an optional value is nullable); only
 * `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`,
 * `anyOf` and `description`. Refinements (a non-empty basis, DISAGREE's
 * kind and fixability) are not expressible there: the wrapper checks them
 * with the zod shape.
 */
export function answerJsonSchema(kind: AnswerKind): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(ANSWER_SHAPES[kind], { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
  return schema;
}

/**
 * `worker-results/<worker>-<kind>-<type>-<seq>.answer.json` (libs/paths
 * `answerRecordPath`): what the wrapper read of a schema-bound answer, beside
 * the Markdown result it wrote from it (docs/contracts.md "Answer objects").
 * `status: read` — `answer` is the validated object and `resultSha256` the
 * digest of the Markdown result written from it; `refused` — the provider
 * gave no object or one that is not valid (`problems` say why; `answer`
 * null): the collector refuses that worker (repair path) and never reads its
 * prose for votes. `startedAt` is the wrapper's start (as its status
 * sidecar's), `source` where the object came from.
 */
export const AnswerRecord = z.looseObject({
  schemaVersion: z.literal('1.0'),
  kind: AnswerKind,
  workerId: WorkerId,
  dispatchKind: DispatchKind,
  startedAt: Timestamp,
  source: z.enum(['claude-structured-output', 'codex-last-message']),
  status: z.enum(['read', 'refused']),
  answer: z.nullable(z.union([ConvergenceAnswer, PlanVerifyAnswer])),
  problems: z.array(z.string()),
  resultSha256: z.nullable(z.string().check(z.regex(/^[0-9a-f]{64}$/, 'expected 64 hex digits'))),
});
export type AnswerRecord = z.infer<typeof AnswerRecord>;

export const answerRecordArtifact = defineArtifact('answer-record', ['1.0'], 'okstra-team exec schema-bound answer record', AnswerRecord);
