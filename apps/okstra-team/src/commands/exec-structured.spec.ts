import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { team } from '../test-support/bin.js';
import { makeFixture, privateSocket, removeFixtures, type Fixture } from '../test-support/fixture.js';
import { execStatusOf, writeExecJob } from '../test-support/exec-job.js';

afterAll(removeFixtures);

const votes = [
  { id: 'F-001', verdict: 'SURVIVES', basis: 'src/refund.ts:88 never clears the timer.' },
  { id: 'F-002', verdict: 'REFUTED', basis: 'the cap is 3, not 5.' },
];
const claudeResult = (structured: unknown) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: JSON.stringify(structured),
  session_id: 's',
  duration_ms: 1,
  duration_api_ms: 1,
  num_turns: 2,
  total_cost_usd: 0,
  usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  modelUsage: {},
  stop_reason: 'tool_use',
  ...(structured === undefined ? {} : { structured_output: structured }),
});

/** A stub CLI: writes `prose` to the result itself (when given), prints `lines`, records its argv, exits 0. */
function stub(f: Fixture, lines: unknown[], prose?: string) {
  const script = [
    'cat > /dev/null',
    `printf '%s\\n' "$@" > "${f.root}/argv.txt"`,
    ...(prose ? [`mkdir -p "${dirname(f.result('alpha'))}"`, `printf '%s' '${prose}' > "${f.result('alpha')}"`] : []),
    ...lines.map((l) => `printf '%s\\n' '${JSON.stringify(l)}'`),
  ].join('\n');
  return { file: '/bin/sh', args: ['-c', script, 'stub', '--json-schema', '{"type":"object"}'] };
}
const recordPath = (f: Fixture) => f.result('alpha').replace(/\.md$/, '.answer.json');
const recordOf = (f: Fixture) => JSON.parse(readFileSync(recordPath(f), 'utf8'));
const structured = (f: Fixture) => ({ dispatchKind: 'reverify-r1', structuredAnswer: { kind: 'reverify', recordPath: recordPath(f) } });

describe('okstra-team exec: a schema-bound answer (docs/team.md "exec", "Answer objects")', () => {
  it('claude: the structured_output object becomes the seed Markdown result and its record; contradicting prose the worker wrote is replaced', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const prose = '### F-001\n**Verdict**: REFUTED\n**Basis**: changed my mind\n';
    const job = writeExecJob(f, stub(f, [claudeResult({ votes })], prose), { ...structured(f), capture: 'claude-stream-json' });
    const r = team(['exec', '--job', job], { env: f.env });
    expect(r.code, r.stderr).toBe(0);
    const md = readFileSync(f.result('alpha'), 'utf8');
    expect(md).toBe(
      '### F-001\n\n**Verdict**: SURVIVES\n**Basis**: src/refund.ts:88 never clears the timer.\n\n### F-002\n\n**Verdict**: REFUTED\n**Basis**: the cap is 3, not 5.\n',
    );
    expect(recordOf(f)).toMatchObject({
      kind: 'reverify',
      workerId: 'alpha',
      dispatchKind: 'reverify-r1',
      status: 'read',
      source: 'claude-structured-output',
      answer: { votes },
      problems: [],
    });
    expect(recordOf(f).resultSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(execStatusOf(f)).toMatchObject({ status: 'completed', endOfTurn: { signal: 'end-turn', stopReason: 'tool_use' } });
    expect(r.stderr).toContain('[okstra] alpha: answer object read');
    // The schema file the launch names (codex reads it) is written before the provider starts.
    expect(JSON.parse(readFileSync(f.prompt('alpha').replace(/\.md$/, '.answer-schema.json'), 'utf8'))).toMatchObject({ type: 'object', required: ['votes'] });
  });

  it('codex: the last message is the object (JSON text)', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const last = f.prompt('alpha').replace(/\.md$/, '.last-message.txt');
    const cmd = stub(f, [{ type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } }]);
    cmd.args[1] = `${cmd.args[1]}\nprintf '%s' '${JSON.stringify({ votes })}' > "${last}"`;
    const job = writeExecJob(f, cmd, { ...structured(f), capture: 'codex-jsonl', lastMessagePath: last });
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(0);
    expect(recordOf(f)).toMatchObject({ status: 'read', source: 'codex-last-message', answer: { votes } });
    expect(readFileSync(f.result('alpha'), 'utf8')).toContain('**Verdict**: SURVIVES');
  });

  it('an invalid object, or none, is recorded refused with why; the worker still completes so the collector offers the repair', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const bad = { votes: [{ id: 'F-001', verdict: 'SURVIVES, probably', basis: 'x' }] };
    const job = writeExecJob(f, stub(f, [claudeResult(bad)]), { ...structured(f), capture: 'claude-stream-json' });
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(0);
    expect(recordOf(f)).toMatchObject({ status: 'refused', answer: null });
    expect(recordOf(f).problems[0]).toMatch(/^votes\.0\.verdict: Invalid option/);
    // The provider's own final text stands as the result (the repair prompt quotes it); its votes are never read.
    expect(readFileSync(f.result('alpha'), 'utf8')).toBe(`${JSON.stringify(bad)}\n`);

    const g = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const none = writeExecJob(g, stub(g, [claudeResult(undefined)]), { ...structured(g), capture: 'claude-stream-json' });
    team(['exec', '--job', none], { env: g.env });
    expect(recordOf(g)).toMatchObject({ status: 'refused', problems: ['the provider gave no answer object (its result event has no structured_output)'] });
  });

  it("an earlier attempt's record is moved aside before the provider starts; a failed run writes none", () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    mkdirSync(dirname(recordPath(f)), { recursive: true });
    writeFileSync(recordPath(f), '{"old":true}');
    const job = writeExecJob(f, { file: '/bin/sh', args: ['-c', 'cat > /dev/null; exit 1'] }, { ...structured(f), capture: 'claude-stream-json' });
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(1);
    expect(existsSync(recordPath(f))).toBe(false);
    expect(readFileSync(`${recordPath(f)}.attempt-1`, 'utf8')).toBe('{"old":true}');
  });

  it('a record path outside the project root is refused before anything runs (exit 2)', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const job = writeExecJob(f, stub(f, []), { dispatchKind: 'reverify-r1', structuredAnswer: { kind: 'reverify', recordPath: '/tmp/elsewhere.answer.json' } });
    const r = team(['exec', '--job', job], { env: f.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/structuredAnswer\.recordPath/);
  });
});
