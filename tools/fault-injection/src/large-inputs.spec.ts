// issue 41 item 3: no size is a surprise. The sample run made large once — a team-state of 1e5 rows
// (~60 MB), a 1e4-line worker answer, a 1e4-line audit sidecar — and every command run once on it
// (the fault-injection command table): each ends 0, 1 or 2 — never 70 (a stack overflow, a spread of
// 1e5 arguments), never a hang, no stack trace; an exit 2 names the file. Then one input past its cap
// per kind: exit 2 naming the cap (docs/conventions.md "Sizes").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, argvOf } from './commands.js';
import { cleanup, pool, prepare, printTable, run, scenario, type Scenario } from './support.js';

const ROWS = 100_000;
const LINES = 10_000;
let s: Scenario;
let stateBytes = 0;
beforeAll(async () => {
  s = scenario();
  await prepare(s);
  // 1e5 team-state rows: the sample's rows, then completed rows of made-up workers whose files are absent —
  // run-audit finds a violation in each (the shape that overflowed a spread push at 90k rows).
  const state = JSON.parse(readFileSync(s.teamState, 'utf8'));
  const [template] = state.workers;
  for (let i = state.workers.length; i < ROWS; i++) {
    const id = `w${String(i).padStart(6, '0')}`;
    state.workers.push({
      ...template,
      workerId: id,
      status: 'completed',
      attempt: 1,
      auditSidecarPath: template.auditSidecarPath.replace('claude', id),
      promptPath: template.promptPath.replace('claude', id),
      resultPath: template.resultPath.replace('claude', id),
    });
  }
  // One row a line: ~60 MB, under the 64 MiB read cap, so every reader really reads it.
  const text = `{${Object.entries(state)
    .map(([k, v]) => `${JSON.stringify(k)}: ${k === 'workers' ? `[\n${(v as unknown[]).map((r) => JSON.stringify(r)).join(',\n')}\n]` : JSON.stringify(v)}`)
    .join(',\n')}}\n`;
  stateBytes = Buffer.byteLength(text);
  writeFileSync(s.teamState, text);
  // A 1e4-line answer: the real one, then 1e4 lines of prose and table rows after it.
  const answer = readFileSync(s.claudeResult, 'utf8');
  const filler = Array.from({ length: LINES }, (_, i) => (i % 10 === 0 ? `| \`src/refund.ts:${i}\` | read line ${i} |` : `Line ${i} of the notes.`));
  writeFileSync(s.claudeResult, `${answer}\n## Notes\n\n${filler.join('\n')}\n`);
  const sidecar = join(s.project, template.auditSidecarPath);
  const heartbeats = Array.from({ length: LINES }, (_, i) => `- PROGRESS: 2026-11-28T11:${String(40 + (i % 4)).padStart(2, '0')}:00Z round-1 step ${i}`);
  writeFileSync(sidecar, `${existsSync(sidecar) ? readFileSync(sidecar, 'utf8') : ''}\n${heartbeats.join('\n')}\n`);
}, 300_000);
afterAll(cleanup);

describe('large inputs (1e5 rows, ~60 MB state, 1e4-line answers)', () => {
  it('every command once: exit 0, 1 or 2 naming the file — never 70, no hang, no stack trace', async () => {
    expect(stateBytes).toBeGreaterThan(50_000_000);
    const failures: string[] = [];
    const rows: Array<{ name: string; code: number | null; ms: number; why: string }> = [];
    await pool(COMMANDS, 2, async (cmd) => {
      const r = await run(cmd.bin, argvOf(cmd, s), { cwd: s.project, env: cmd.env?.(s), timeoutMs: 120_000 });
      const last = r.stderr.trim().split('\n').pop() ?? '';
      rows.push({ name: cmd.name, code: r.code, ms: r.ms, why: r.code === 2 ? last.replace(s.tmp, '').slice(0, 140) : '' });
      if (r.hung) failures.push(`${cmd.name}: hung`);
      else if (![0, 1, 2].includes(r.code ?? -1)) failures.push(`${cmd.name}: exit ${r.code ?? r.signal}: ${last.slice(0, 200)}`);
      else if (/\n\s+at \S|Maximum call stack/.test(r.stderr)) failures.push(`${cmd.name}: ${last.slice(0, 200)}`);
    });
    for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
    printTable(`large inputs (team-state ${ROWS} rows, ${(stateBytes / 1e6).toFixed(0)} MB; ${LINES}-line answer and sidecar)`, [
      ...rows
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((r) => ({
          test: `${r.name} (${(r.ms / 1000).toFixed(1)} s)`,
          tries: 1,
          failures: failures.some((f) => f.startsWith(`${r.name}:`)) ? 1 : 0,
          note: `exit ${r.code}${r.why ? `: ${r.why}` : ''}`,
        })),
    ]);
    expect(failures).toEqual([]);
  }, 600_000);

  it('past a cap: exit 2 naming the file and the cap (a 64 MiB state file, an 8 MiB worker answer)', async () => {
    const esc = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // The state-file read cap (libs/state-file, 64 MiB): a team-state one page past it.
    const state = join(s.project, '.okstra', 'over-cap-team-state.json');
    writeFileSync(state, `{"schemaVersion":"1.0","pad":"${'x'.repeat(64 * 1024 * 1024 + 4096)}"}\n`);
    const live = await run('live', ['--team-state', state, '--worker', 'claude'], { cwd: s.project });
    expect([live.code, live.stderr]).toEqual([2, expect.stringMatching(new RegExp(`${esc(state)}: file is too large \\(\\d+ bytes, limit 67108864\\)`))]);
    // The worker-answer cap (libs/verdict-blocks MAX_RESPONSE_BYTES, 8 MiB).
    const answer = join(s.project, '.okstra', 'over-cap-answer.md');
    writeFileSync(answer, `# claude\n\n${'Line of notes.\n'.repeat((8 * 1024 * 1024) / 15 + 10)}`);
    const cmd = COMMANDS.find((c) => c.name === 'convergence collect-results')!;
    const out = join(s.project, '.okstra', 'over-cap-results.json');
    const collect = await run(cmd.bin, argvOf(cmd, s, { '--result': answer, '--output': out }), { cwd: s.project });
    expect([collect.code, collect.stderr]).toEqual([2, expect.stringMatching(new RegExp(`${esc(answer)}: file is too large \\(\\d+ bytes, limit 8388608\\)`))]);
  }, 120_000);
});
