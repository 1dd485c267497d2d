import { describe, expect, it } from 'vitest';
import {
  applyCriticGaps,
  applyRound,
  collectCriticGaps,
  createWorkingState,
  exampleCoverageBatch,
  exampleCriticResults,
  exampleGroups,
  exampleRoundResults,
  planRound,
} from './index.js';

/** The examples' state after round 1: queue terminal, critic grok, analysers claude and codex. */
const terminal = () => {
  const s = createWorkingState(exampleGroups());
  return applyRound(s, planRound(s), exampleRoundResults());
};

const CLAUDE = `I checked both candidates.

### C-001 — refund amount
**Verdict**: SURVIVES
**Basis**: create.ts:22 only checks amount > 0.

### C-002
**Verdict**: REFUTED
**Basis**: The job takes an advisory lock (scheduler.ts:14).
`;
const CODEX =
  '### C-001\r\nVerdict: survives\r\nBasis: Confirmed: the capture total is never read when creating a refund.\r\n\r\n### C-002: SURVIVES-WITH-CAVEAT\r\n\r\nBasis: Possible, but only when the lock table is unavailable.\r\n';

const collect = (over: Partial<Parameters<typeof collectCriticGaps>[0]> = {}) =>
  collectCriticGaps({
    state: terminal(),
    stateFile: 'work.json',
    criticResults: exampleCriticResults(),
    criticDispatch: { status: 'completed', durationMs: 900_000 },
    responses: [
      { workerId: 'claude', file: 'claude.md', text: CLAUDE },
      { workerId: 'codex', file: 'codex.md', text: CODEX },
    ],
    dispatches: [
      { workerId: 'claude', status: 'completed', durationMs: 203_000 },
      { workerId: 'codex', status: 'completed', durationMs: 188_000 },
    ],
    ...over,
  });

describe('collectCriticGaps (docs/convergence.md "Critic gaps")', () => {
  it("parses the analysers' gap-vote Markdown into the batch apply-critic-gaps takes", () => {
    const batch = collect();
    const { criticDispatch, ...rest } = batch;
    expect(criticDispatch).toEqual({ status: 'completed', durationMs: 900_000 });
    expect(rest).toEqual(exampleCoverageBatch());
    expect(applyCriticGaps(terminal(), batch).derived.criticGaps).toEqual([
      { id: 'C-001', decision: 'accepted' },
      { id: 'C-002', decision: 'unresolved' },
    ]);
  });

  it('accepts a failed critic dispatch with no gaps and no analyser rows', () => {
    const batch = collect({ criticResults: undefined, criticDispatch: { status: 'timeout', durationMs: 1_800_000 }, responses: [], dispatches: [] });
    expect(batch).toMatchObject({ criticWorkerId: 'grok', modelExecutionValue: 'grok-4', dispatches: [], gaps: [], criticDispatch: { status: 'timeout' } });
    const s = applyCriticGaps(terminal(), batch);
    expect(s.criticBatch).toEqual(batch);
    expect(s.derived.criticGaps).toEqual([]);
  });

  it('records an analyser that timed out with no votes', () => {
    const batch = collect({
      responses: [{ workerId: 'claude', file: 'claude.md', text: CLAUDE }],
      dispatches: [
        { workerId: 'claude', status: 'completed', durationMs: 1 },
        { workerId: 'codex', status: 'timeout', durationMs: 2 },
      ],
    });
    expect(batch.dispatches.map((d) => d.status)).toEqual(['completed', 'timeout']);
    expect(batch.gaps.map((g) => g.votes.map((v) => v.workerId))).toEqual([['claude'], ['claude']]);
  });

  const refusals: Array<[string, () => unknown, RegExp]> = [
    [
      'a gap with no verdict',
      () =>
        collect({
          responses: [
            { workerId: 'claude', file: 'claude.md', text: CLAUDE.split('### C-002')[0] },
            { workerId: 'codex', file: 'codex.md', text: CODEX },
          ],
        }),
      /worker claude: gap C-002: dispatched gap with no verdict/,
    ],
    [
      'a vote for an unknown gap',
      () =>
        collect({
          responses: [
            { workerId: 'claude', file: 'claude.md', text: CLAUDE + '\n### C-009\nVerdict: SURVIVES\nBasis: x\n' },
            { workerId: 'codex', file: 'codex.md', text: CODEX },
          ],
        }),
      /gap C-009: verdict for a gap not dispatched/,
    ],
    [
      'a vote with no Basis',
      () =>
        collect({
          responses: [
            { workerId: 'claude', file: 'claude.md', text: CLAUDE.replace('**Basis**: create.ts:22 only checks amount > 0.', '') },
            { workerId: 'codex', file: 'codex.md', text: CODEX },
          ],
        }),
      /worker claude: gap C-001: vote with no explanation/,
    ],
    [
      'an analyser with no outcome',
      () => collect({ dispatches: [{ workerId: 'claude', status: 'completed', durationMs: 1 }] }),
      /analyser codex: no recorded outcome/,
    ],
    [
      'a response of an analyser that timed out',
      () =>
        collect({
          dispatches: [
            { workerId: 'claude', status: 'completed', durationMs: 1 },
            { workerId: 'codex', status: 'timeout', durationMs: 2 },
          ],
        }),
      /worker codex ended timeout, so it has no response/,
    ],
    [
      'a worker that is not an analyser',
      () => collect({ dispatches: [{ workerId: 'grok', status: 'completed', durationMs: 1 }] }),
      /--dispatch for worker grok, which is not an active analyser/,
    ],
    ['a completed critic without candidates', () => collect({ criticResults: undefined }), /pass its result document as --critic-results/],
    [
      'a failed critic with analyser rows',
      () => collect({ criticResults: undefined, criticDispatch: { status: 'error', durationMs: 1 } }),
      /the critic ended error: no analyser votes on gaps/,
    ],
  ];
  for (const [name, run, message] of refusals) it(`refuses ${name}`, () => expect(run).toThrow(message));

  it('apply-critic-gaps still refuses gaps from a critic that did not complete', () => {
    const batch = { ...exampleCoverageBatch(), criticDispatch: { status: 'timeout' as const, durationMs: 1 } };
    expect(() => applyCriticGaps(terminal(), batch)).toThrow(/the critic ended timeout but the batch has gaps/);
  });
});
