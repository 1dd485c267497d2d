// Non-answers from signals, not languages (issue #38 item 4): a cli-wrapper result whose status sidecar records the
// provider's end-of-turn signal is judged by that signal and its shape; a native-session result keeps the text rule.
import { afterEach, describe, expect, it } from 'vitest';
import { runAudit } from '../audit-project.js';
import { EA, makeCleanProject, type Project } from '../test-support/fixtures.js';

let project: Project;
afterEach(() => project?.cleanup());

const statusOf = (signal: string | null) => ({
  schemaVersion: '1.0',
  workerId: 'codex',
  dispatchKind: 'initial',
  status: 'completed',
  exitCode: 0,
  signal: null,
  startedAt: '2026-11-29T08:01:03Z',
  endedAt: '2026-11-29T08:24:40Z',
  durationMs: 1_417_000,
  reason: null,
  ...(signal === null
    ? {}
    : { endOfTurn: { source: 'codex-jsonl', signal, event: signal === 'end-turn' ? 'turn.completed' : 'turn.failed', stopReason: null, errors: [] } }),
});

async function answerViolations(result: string, signal: string | null | undefined): Promise<string[]> {
  project = makeCleanProject();
  project.write(EA.result('codex'), result);
  if (signal !== undefined) project.write(EA.prompt('codex').replace(/\.md$/, '.status.json'), statusOf(signal));
  return (await runAudit(project.root)).violations.filter((v) => v.invariant === 'answer-invalid').map((v) => v.message);
}

describe("a cli-wrapper answer is judged by its provider's end-of-turn signal", () => {
  it('a turn that ended normally is an answer whatever its first words (the text rule is for native sessions)', async () => {
    expect(await answerViolations('Error: handling in the refund worker swallows the gateway timeout.\n', 'end-turn')).toEqual([]);
    expect(await answerViolations('Starting the worker with a 5 s timeout reproduces the double refund.\n', 'end-turn')).toEqual([]);
  });

  it('a turn cut off, stopped at the turn limit, refused or failed is no answer, whatever the text says', async () => {
    for (const signal of ['max-tokens', 'max-turns', 'refusal', 'error', 'none']) {
      const found = await answerViolations('# Findings\n\n### F-2\nThe refund retry loop has no deadline and', signal);
      expect(found, signal).toHaveLength(1);
      expect(found[0]).toMatch(/provider's turn ended .*is no finished answer/);
    }
  });

  it("an answer's shape still counts with a normal end: a status sidecar's JSON is no answer", async () => {
    expect(await answerViolations(JSON.stringify(statusOf('end-turn'), null, 2), 'end-turn')).toEqual([
      expect.stringMatching(/wrapper status sidecar's JSON|a copy of codex-prompt/),
    ]);
  });

  it('without a signal (a native session, a sidecar written before endOfTurn) the small text rule applies', async () => {
    expect(await answerViolations("I'm sorry, but I can't help with that.\n", undefined)).toHaveLength(1);
    expect(await answerViolations("I'm sorry, but I can't help with that.\n", null)).toHaveLength(1);
  });
});
