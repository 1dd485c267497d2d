import { describe, expect, it } from 'vitest';
import { roundPlan } from './test-support/round-plan.js';
import { collectRoundResults, normalizeWord, parseDispatchFlag, type WorkerDispatchOutcome, type WorkerResponse } from './collect-results.js';

const plan = roundPlan({ claude: ['F-002', 'F-004'], codex: ['F-001'] });

const CLAUDE = `Sure — I re-checked both findings.

### F-002 — webhook race
**Verdict**: REFUTED
**Basis**: the row lock at queue.ts:88 serializes both writers.

Some words between blocks.

#### \`F-004\`
- verdict: survives with caveat
- basis: true for card refunds only;
  bank transfers take another path.

\`\`\`
### F-001
**Verdict**: SURVIVES
\`\`\`
`;

const CODEX = '### F-001\r\nVerdict: Unverifiable.\r\nBasis: the cache is injected at runtime.\r\n';

function collect(responses: Partial<Record<string, string>>, dispatches: WorkerDispatchOutcome[], mode: 'adversarial' | 'collaborative' = 'adversarial') {
  const list: WorkerResponse[] = Object.entries(responses).map(([workerId, text]) => ({ workerId, file: `${workerId}.md`, text: text! }));
  return collectRoundResults({ plan: { ...plan, mode }, planFile: 'plan.json', mode, responses: list, dispatches });
}

const done = (workerId: string, durationMs = 1000): WorkerDispatchOutcome => ({ workerId, status: 'completed', durationMs });

describe('collectRoundResults', () => {
  it('maps adversarial words, copies Basis, and ignores fenced blocks', () => {
    const r = collect({ claude: CLAUDE, codex: CODEX }, [done('claude', 412000), done('codex', 9)]);
    expect(r).toEqual({
      schemaVersion: '1.0',
      kind: 'round-results',
      round: 1,
      mode: 'adversarial',
      workers: [
        {
          workerId: 'claude',
          status: 'completed',
          durationMs: 412000,
          resultPath: 'claude.md',
          verdicts: [
            {
              findingId: 'F-002',
              verdict: 'disagree',
              explanation: 'the row lock at queue.ts:88 serializes both writers.\n\nSome words between blocks.',
              disagreeBasis: 'the row lock at queue.ts:88 serializes both writers.\n\nSome words between blocks.',
              sourceVerdict: 'REFUTED',
              line: 4,
            },
            {
              findingId: 'F-004',
              verdict: 'supplement',
              explanation: 'true for card refunds only;\nbank transfers take another path.\n\n```\n### F-001\n**Verdict**: SURVIVES\n```',
              sourceVerdict: 'SURVIVES-WITH-CAVEAT',
              line: 10,
            },
          ],
        },
        {
          workerId: 'codex',
          status: 'completed',
          durationMs: 9,
          resultPath: 'codex.md',
          verdicts: [{ findingId: 'F-001', verdict: 'unverifiable', explanation: 'the cache is injected at runtime.', sourceVerdict: 'UNVERIFIABLE', line: 2 }],
        },
      ],
    });
  });

  it('records a worker that timed out with no votes', () => {
    const r = collect({ claude: CLAUDE }, [done('claude'), { workerId: 'codex', status: 'timeout', durationMs: 1_800_000 }]);
    expect(r.workers[1]).toEqual({ workerId: 'codex', status: 'timeout', durationMs: 1_800_000, verdicts: [] });
  });

  it('reads collaborative words directly', () => {
    const text = '### F-001\n**Verdict:** Disagree\n**Basis:** wrong file.\n';
    const r = collect({ codex: text }, [{ workerId: 'claude', status: 'error', durationMs: 5 }, done('codex')], 'collaborative');
    expect(r.workers[1].verdicts[0]).toMatchObject({ verdict: 'disagree', disagreeBasis: 'wrong file.', sourceVerdict: 'DISAGREE' });
  });

  const errors: Array<[string, () => unknown, RegExp]> = [
    [
      'a dispatched finding with no block',
      () => collect({ claude: CLAUDE.split('#### ')[0], codex: CODEX }, [done('claude'), done('codex')]),
      /^worker claude: finding F-004: dispatched finding with no verdict/,
    ],
    [
      'a block with no verdict',
      () => collect({ claude: CLAUDE.replace('**Verdict**: REFUTED\n', ''), codex: CODEX }, [done('claude'), done('codex')]),
      /worker claude: finding F-002: dispatched finding with no verdict/,
    ],
    [
      'a verdict for a finding not dispatched to the worker',
      () => collect({ claude: CLAUDE + '\n### F-001\nVerdict: SURVIVES\nBasis: x\n', codex: CODEX }, [done('claude'), done('codex')]),
      /worker claude: finding F-001: verdict for a finding not dispatched to this worker/,
    ],
    ['a planned worker with no outcome', () => collect({ claude: CLAUDE }, [done('claude')]), /worker codex: planned worker with no recorded outcome/],
    [
      'a vote with no explanation',
      () => collect({ claude: CLAUDE, codex: '### F-001\nVerdict: SURVIVES\n' }, [done('claude'), done('codex')]),
      /worker codex: finding F-001: vote with no explanation/,
    ],
    [
      'two verdicts in one block',
      () => collect({ claude: CLAUDE, codex: CODEX + 'Verdict: SURVIVES\n' }, [done('claude'), done('codex')]),
      /worker codex: finding F-001: two \*\*Verdict\*\* fields in one block \(lines 2 and 4\)/,
    ],
    [
      'two blocks for one finding',
      () => collect({ claude: CLAUDE, codex: CODEX + '\n### F-001\nVerdict: SURVIVES\nBasis: y\n' }, [done('claude'), done('codex')]),
      /two verdicts for one finding in one response \(lines 2 and 6\)/,
    ],
    [
      'an unknown verdict word',
      () => collect({ claude: CLAUDE, codex: '### F-001\nVerdict: MAYBE\nBasis: x\n' }, [done('claude'), done('codex')]),
      /unknown verdict 'MAYBE' \(adversarial mode accepts REFUTED, SURVIVES, SURVIVES-WITH-CAVEAT, UNVERIFIABLE\)/,
    ],
    [
      'collaborative words in adversarial mode',
      () => collect({ claude: CLAUDE, codex: '### F-001\nVerdict: agree\nBasis: x\n' }, [done('claude'), done('codex')]),
      /unknown verdict 'agree'/,
    ],
    [
      'a response from a worker that timed out',
      () => collect({ claude: CLAUDE, codex: CODEX }, [done('claude'), { workerId: 'codex', status: 'timeout', durationMs: 1 }]),
      /worker codex ended timeout, so it has no response/,
    ],
    ['a completed worker without a response', () => collect({ claude: CLAUDE }, [done('claude'), done('codex')]), /worker codex completed but no --result/],
    [
      'an unplanned worker',
      () => collect({ claude: CLAUDE, codex: CODEX }, [done('claude'), done('codex'), done('grok')]),
      /--dispatch for worker grok, which is not planned/,
    ],
  ];
  for (const [name, run, message] of errors) {
    it(`refuses ${name}`, () => expect(run).toThrow(message));
  }

  it('names the file and line of a bad verdict', () => {
    try {
      collect({ claude: CLAUDE, codex: '### F-001\n\nVerdict: MAYBE\nBasis: x\n' }, [done('claude'), done('codex')]);
      expect.unreachable();
    } catch (error) {
      expect((error as { file: string; field: string }).file).toBe('codex.md');
      expect((error as { file: string; field: string }).field).toBe('line 3');
    }
  });
});

describe('flags and words', () => {
  it('parses --dispatch exactly as team await reports it', () => {
    expect(parseDispatchFlag('codex=timeout:1800000')).toEqual({ workerId: 'codex', status: 'timeout', durationMs: 1_800_000 });
    expect(parseDispatchFlag('w.1=not-run:0')).toEqual({ workerId: 'w.1', status: 'not-run', durationMs: 0 });
    expect(parseDispatchFlag('리뷰어-é=completed:5')).toEqual({ workerId: '리뷰어-é', status: 'completed', durationMs: 5 });
    for (const bad of ['codex=done:1', 'codex=completed', 'codex=completed:1.5', 'codex=completed:-1', '=completed:1', 'codex:completed:1']) {
      expect(() => parseDispatchFlag(bad)).toThrow(/--dispatch expects/);
    }
  });

  it('normalizes verdict words', () => {
    expect(normalizeWord(' **Survives with caveat.** ')).toBe('SURVIVES-WITH-CAVEAT');
    expect(normalizeWord('survives_with_caveat')).toBe('SURVIVES-WITH-CAVEAT');
    expect(normalizeWord('`REFUTED`')).toBe('REFUTED');
  });
});
