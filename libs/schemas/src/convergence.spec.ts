import { describe, expect, it } from 'vitest';
import { FinalState } from './convergence.js';
import { validateWithJsonSchemaFile } from './test-support/json-schema-file.js';

const schemaPath = new URL('../dist/json-schema/convergence-final-state.schema.json', import.meta.url).pathname;

/** A small terminal final state (one finding agreed by consensus in round 1). */
const final = () => ({
  schemaVersion: '1.3',
  kind: 'convergence-final-state',
  seedDigest: 'sha256:' + 'a'.repeat(64),
  mode: 'adversarial',
  roundLimit: 1,
  rounds: 1,
  roster: [
    { workerId: 'a', provider: 'claude', role: 'analyser', failures: 0, droppedInRound: null },
    { workerId: 'b', provider: 'codex', role: 'analyser', failures: 0, droppedInRound: null },
  ],
  findings: [
    {
      id: 'F-1',
      title: 't',
      claim: 'c',
      evidence: [],
      authors: ['a'],
      source: 'analyser',
      status: 'agreed' as string,
      reason: 'consensus' as string | null,
      decidedInRound: 1 as number | null,
      votes: [{ round: 1, workerId: 'b', verdict: 'agree', explanation: 'x' }],
    },
  ],
  criticApplied: false,
  criticGaps: [],
  counts: { total: 1, agreed: 1, refuted: 0, unverifiable: 0, contested: 0, analyser: 1, critic: 0 },
});

describe('final-state schema: real enums for status and reason (docs/convergence.md "Documents")', () => {
  it('the zod schema and the published JSON Schema accept a terminal state', async () => {
    expect(FinalState.safeParse(final()).success).toBe(true);
    await expect(validateWithJsonSchemaFile(schemaPath, final())).resolves.toBeUndefined();
  });

  for (const [name, edit] of [
    ['status pending', (f: ReturnType<typeof final>['findings'][0]) => (f.status = 'pending')],
    ['an unknown status', (f: ReturnType<typeof final>['findings'][0]) => (f.status = 'maybe')],
    ['a null reason', (f: ReturnType<typeof final>['findings'][0]) => (f.reason = null)],
    ['an unknown reason', (f: ReturnType<typeof final>['findings'][0]) => (f.reason = 'timeout')],
    ['a null decidedInRound', (f: ReturnType<typeof final>['findings'][0]) => (f.decidedInRound = null)],
  ] as const) {
    it(`both refuse ${name}`, async () => {
      const doc = final();
      edit(doc.findings[0]);
      expect(FinalState.safeParse(doc).success).toBe(false);
      await expect(validateWithJsonSchemaFile(schemaPath, doc)).rejects.toMatchObject({ field: expect.stringMatching(/^\/findings\/0\//) });
    });
  }
});
