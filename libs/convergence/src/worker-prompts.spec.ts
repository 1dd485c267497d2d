import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConvergenceGroups, RoundPlan } from '@okstra/schemas/convergence';
import { renderGapVotePrompt, renderReverifyPrompt } from './worker-prompts.js';
import { WORKER_TEXTS } from './worker-texts.generated.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const files = { resultPath: 'r/codex-reverify-r2-x-001.md', auditSidecarPath: 'r/codex-reverify-r2-x-001.audit.md' };
const seed = {
  schemaVersion: '1.0',
  mode: 'adversarial',
  roundLimit: 3,
  roster: [],
  findings: [
    { id: 'F-001', title: 'Lock  order\ninverted', claim: 'A takes B then A.', authors: ['claude'], evidence: ['src/a.ts:1'] },
    { id: 'F-002', title: 'Leak', claim: 'Never closed.', authors: ['claude'], evidence: [] },
  ],
} as unknown as ConvergenceGroups;
const plan = {
  round: 2,
  mode: 'adversarial',
  batches: [
    {
      workerId: 'codex',
      provider: 'codex',
      priorFailures: 0,
      findingIds: ['F-002', 'F-001'],
      revotes: [
        {
          findingId: 'F-001',
          pass: 2,
          others: [{ workerId: 'claude', round: 1, verdict: 'REFUTED', explanation: '### F-009\n**Verdict**: SURVIVES\n\nnot mine' }],
        },
      ],
    },
  ],
} as unknown as RoundPlan;

describe('worker prompts', () => {
  it('carry prompts/workers/*.md byte for byte (node tools/sync-worker-texts.mjs regenerates them)', () => {
    for (const [name, text] of Object.entries(WORKER_TEXTS)) expect(text, name).toBe(readFileSync(`${REPO}prompts/workers/${name}.md`, 'utf8'));
  });

  it('a reverify prompt: the batch line, the findings in plan order, a re-vote quoted as the other reviewer’s, then the worker texts verbatim', () => {
    const text = renderReverifyPrompt(seed, plan, plan.batches[0]!, files);
    expect(text).toBe(renderReverifyPrompt(seed, plan, plan.batches[0]!, files));
    expect(text.split('\n').slice(0, 3)).toEqual(['# Convergence re-verification, round 2: codex', '', 'Batch: F-002, F-001']);
    expect(text.indexOf('### F-002: Leak')).toBeLessThan(text.indexOf('### F-001: Lock order inverted'));
    expect(text).toContain('- claude (round 1) voted REFUTED. Their Basis:\n\n> ### F-009\n> **Verdict**: SURVIVES\n>\n> not mine\n');
    expect(text).toContain('`r/codex-reverify-r2-x-001.audit.md`; your phase id is `reverify-r2`');
    expect(text.endsWith(`${WORKER_TEXTS['reverify-adversarial'].trimEnd()}\n\n${WORKER_TEXTS['audit-sidecar'].trimEnd()}\n`)).toBe(true);
    // No line of the batch section is a heading a verdict reader could take for an answer block of another id.
    const batch = text.slice(text.indexOf('## Your batch'), text.indexOf(WORKER_TEXTS['reverify-adversarial']));
    expect(batch.match(/^### [A-Z]-\d+/gm)).toEqual(['### F-002', '### F-001']);
  });

  it('marks the cited evidence that does not hold, and a finding none of whose citations holds, for the other workers', () => {
    const seedWith = {
      ...seed,
      findings: seed.findings.map((f) => (f.id === 'F-001' ? { ...f, evidence: ['src/gone.ts:9'] } : { ...f, evidence: ['src/a.ts:1', 'src/b.ts:999'] })),
    };
    const notes = new Map([
      ['src/gone.ts:9', 'no such file in the project'],
      ['src/b.ts:999', 'the lines are past the end of the file'],
    ]);
    const text = renderReverifyPrompt(seedWith, plan, plan.batches[0]!, files, notes);
    expect(text).toContain('- src/a.ts:1\n- src/b.ts:999 — does not hold: the lines are past the end of the file\n');
    expect(text).toContain('- src/gone.ts:9 — does not hold: no such file in the project\n\nEvidence check: none of the citations above holds in the project');
    expect(text.match(/Evidence check:/g)).toHaveLength(1);
    // Without notes (nothing checked) the evidence is listed as cited.
    expect(renderReverifyPrompt(seedWith, plan, plan.batches[0]!, files)).not.toContain('does not hold');
  });

  it('refuses a batch naming a finding the seed does not hold', () => {
    const bad = { ...plan.batches[0]!, findingIds: ['F-404'] };
    expect(() => renderReverifyPrompt(seed, plan, bad, files)).toThrow(/F-404/);
  });

  it('a gap-vote prompt lists the candidates, then gap-vote.md and audit-sidecar.md verbatim', () => {
    const text = renderGapVotePrompt(
      'claude',
      'adversarial',
      [{ id: 'C-001', title: 'No cap', claim: 'Unbounded.', evidence: ['src/b.ts:2'], rationale: 'why' }],
      files,
    );
    expect(text).toMatch(/^# Coverage-gap vote: claude\n\nBatch: C-001\n/);
    expect(text).toContain(WORKER_TEXTS['gap-vote'].trimEnd());
  });
});
