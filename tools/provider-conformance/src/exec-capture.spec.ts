import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { wrapperLastMessagePath, wrapperLogPath } from '@okstra/paths';
import { CLAUDE_ANSWER, claudeEmptyAnswer, claudeTranscript, claudeUnreachable } from './fixtures/claude.js';
import { CODEX_ANSWER, codexTranscript } from './fixtures/codex.js';
import { makeProject, removeProjects, runExec, type Project } from './support/project.js';

afterAll(removeProjects);
const FAKE = fileURLToPath(new URL('./support/fake-provider.mjs', import.meta.url));

/** Run the wrapper on a provider that replays `events` and exits `code`, writing `lastMessage` (codex) when given. */
function replayThroughExec(p: Project, kind: 'claude-stream-json' | 'codex-jsonl', events: unknown[], code = 0, lastMessage?: string) {
  const transcript = join(p.base, 'transcript.json');
  writeFileSync(transcript, JSON.stringify(events));
  const lastPath = wrapperLastMessagePath(p.prompt);
  let src = '-';
  if (lastMessage !== undefined) writeFileSync((src = join(p.base, 'last.txt')), lastMessage);
  return runExec(p, {
    provider: kind === 'claude-stream-json' ? 'claude' : 'codex',
    capture: kind,
    lastMessagePath: kind === 'codex-jsonl' ? lastPath : null,
    command: { file: process.execPath, args: [FAKE, transcript, src, kind === 'codex-jsonl' ? lastPath : '-', String(code)] },
  });
}

describe('okstra-team exec captures the provider answer and usage', () => {
  it('claude answered but wrote no result file: completed, the answer written there, usage in the sidecar', () => {
    const p = makeProject();
    const r = replayThroughExec(p, 'claude-stream-json', claudeTranscript);
    expect(r.code).toBe(0);
    expect(readFileSync(p.result, 'utf8')).toBe(CLAUDE_ANSWER);
    const s = p.statusOf();
    expect(s).toMatchObject({ status: 'completed', reason: null, answer: { source: 'claude-result', chars: CLAUDE_ANSWER.length, wroteResult: true } });
    expect(s.usage).toMatchObject({ source: 'claude-stream-json', model: 'claude-sonnet-5', inputTokens: 1200, outputTokens: 3400, costUsd: 0.4213, turns: 7 });
    expect(p.row()).toMatchObject({ status: 'completed' });
  });

  it('a result file the worker wrote itself is never replaced by the answer', () => {
    const p = makeProject();
    const own = '# my own result\n';
    // The worker writes its result during the run (the fake copies it there before it exits).
    const transcript = join(p.base, 'transcript.json');
    writeFileSync(transcript, JSON.stringify(claudeTranscript));
    writeFileSync(join(p.base, 'own.md'), own);
    runExec(p, {
      provider: 'claude',
      capture: 'claude-stream-json',
      lastMessagePath: null,
      command: { file: process.execPath, args: [FAKE, transcript, join(p.base, 'own.md'), p.result, '0'] },
    });
    expect(readFileSync(p.result, 'utf8')).toBe(own);
    expect(p.statusOf()).toMatchObject({ status: 'completed', answer: { wroteResult: false } });
  });

  it('codex: the --output-last-message file is the answer; a stale one from an earlier dispatch is never used', () => {
    const p = makeProject();
    writeFileSync(wrapperLastMessagePath(p.prompt), 'stale answer of the last dispatch\n');
    const none = replayThroughExec(p, 'codex-jsonl', codexTranscript.slice(0, 2));
    expect(none.code).toBe(1);
    expect(existsSync(p.result)).toBe(false);
    expect(p.statusOf().reason).toMatch(/^exit 0 but result missing and the provider gave no final answer: .*w-error-analysis-001\.md$/);
    const p2 = makeProject();
    expect(replayThroughExec(p2, 'codex-jsonl', codexTranscript, 0, CODEX_ANSWER).code).toBe(0);
    expect(readFileSync(p2.result, 'utf8')).toBe(CODEX_ANSWER);
    expect(p2.statusOf()).toMatchObject({
      status: 'completed',
      answer: { source: 'codex-last-message', wroteResult: true },
      // No codex session record in this HOME: turns (model requests) unknown.
      usage: { source: 'codex-jsonl', model: 'sonnet', inputTokens: 10000, outputTokens: 2000, turns: null },
    });
  });

  it('an empty final answer, or exit 0 with none, is an error saying so', () => {
    const p = makeProject();
    expect(replayThroughExec(p, 'claude-stream-json', claudeEmptyAnswer).code).toBe(1);
    expect(existsSync(p.result)).toBe(false);
    expect(p.statusOf()).toMatchObject({ status: 'error', answer: { chars: 0, wroteResult: false } });
    expect(p.statusOf().reason).toMatch(/^exit 0 but result missing and the provider's final answer was empty: /);
    expect(p.row()).toMatchObject({ status: 'error', reason: p.statusOf().reason });
    const q = makeProject();
    expect(replayThroughExec(q, 'claude-stream-json', [claudeTranscript[0]]).code).toBe(1);
    expect(q.statusOf().reason).toMatch(/^exit 0 but result missing and the provider gave no final answer: /);
  });

  it("a failed run's reason is the provider's own account, not a bare exit code", () => {
    const p = makeProject();
    expect(replayThroughExec(p, 'claude-stream-json', claudeUnreachable, 1).code).toBe(1);
    expect(p.statusOf()).toMatchObject({
      status: 'error',
      exitCode: 1,
      reason: 'exit 1: API Error: Unable to connect to API (ConnectionRefused)',
      answer: null,
    });
  });

  it('the .log is appended across dispatches of one prompt (the seeds: tee -a)', () => {
    const p = makeProject();
    replayThroughExec(p, 'claude-stream-json', claudeUnreachable, 1);
    const first = readFileSync(wrapperLogPath(p.prompt), 'utf8');
    replayThroughExec(p, 'claude-stream-json', claudeTranscript);
    const both = readFileSync(wrapperLogPath(p.prompt), 'utf8');
    expect(both.startsWith(first)).toBe(true);
    expect(both.length).toBeGreaterThan(first.length);
  });
});
