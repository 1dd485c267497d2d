import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusExamples } from './corpus.js';
import { okstra } from './run-tool.js';

/**
 * The reverify examples of prompts/workers go through the real
 * `okstra convergence collect-results` with a round plan that dispatches exactly
 * their findings to one worker: every block must come out as a vote with its
 * Basis, in the vocabulary of that mode (docs/contracts.md §5, §7).
 */
const MODES = {
  'reverify-adversarial': {
    mode: 'adversarial',
    words: { REFUTED: 'disagree', SURVIVES: 'agree', 'SURVIVES-WITH-CAVEAT': 'supplement', UNVERIFIABLE: 'unverifiable' },
  },
  'reverify-collaborative': { mode: 'collaborative', words: { AGREE: 'agree', DISAGREE: 'disagree', SUPPLEMENT: 'supplement', UNVERIFIABLE: 'unverifiable' } },
} as const;

const tmp = mkdtempSync(join(tmpdir(), 'prompt-reverify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cases = corpusExamples()
  .filter((e) => e.kind in MODES)
  .map((e) => [`${e.file}:${e.line}`, e] as const);

describe('reverify examples through okstra convergence collect-results', () => {
  it('exist for both modes', () => {
    expect(new Set(cases.map(([, e]) => e.kind))).toEqual(new Set(Object.keys(MODES)));
  });

  it.each(cases)('%s', async (where, e) => {
    const { mode, words } = MODES[e.kind as keyof typeof MODES];
    const blocks = [...e.value.matchAll(/^### (\S+)\n\*\*Verdict\*\*: (\S+)/gm)].map((m) => ({ id: m[1], word: m[2].toUpperCase() }));
    expect(blocks.length, `${where}: no ### <id> / **Verdict** blocks`).toBeGreaterThan(0);
    const dir = join(tmp, e.kind);
    const plan = join(`${dir}-plan.json`);
    writeFileSync(
      plan,
      JSON.stringify({
        schemaVersion: '1.0',
        kind: 'round-plan',
        seedDigest: 'sha256:example',
        mode,
        round: 1,
        roundLimit: 3,
        queueTerminal: false,
        batches: [{ workerId: 'codex', provider: 'codex', priorFailures: 0, findingIds: blocks.map((b) => b.id) }],
        droppedWorkers: [],
      }),
    );
    const response = `${dir}-codex.md`;
    writeFileSync(response, `I re-verified the batch.\n\n${e.value}\n`);
    const out = `${dir}-results.json`;
    const run = await okstra(
      'convergence',
      'collect-results',
      '--plan',
      plan,
      '--mode',
      mode,
      '--result',
      `codex=${response}`,
      '--dispatch',
      'codex=completed:812000',
      '--output',
      out,
    );
    expect(run.code, `${where}: ${run.stderr}`).toBe(0);
    const votes = JSON.parse(readFileSync(out, 'utf8')).workers[0].verdicts as Array<{ findingId: string; verdict: string; explanation: string }>;
    expect(
      votes.map((v) => [v.findingId, v.verdict]),
      where,
    ).toEqual(blocks.map((b) => [b.id, words[b.word as keyof typeof words]]));
    for (const v of votes) expect(v.explanation.length, `${where}: ${v.findingId} has no Basis`).toBeGreaterThan(20);
  });
});
