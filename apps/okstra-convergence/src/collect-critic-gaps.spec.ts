import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, cli, exampleDir, ok, removeTempDirs, seedAndPlan, workerFlags } from './test-support/bin.js';

afterAll(removeTempDirs);

/** The examples' state with round 1 applied (queue terminal), plus the critic's result document. */
function terminalExample(): string {
  const dir = exampleDir({ 'groups.json': 'groups', 'results.json': 'round-results', 'critic.json': 'critic-results' });
  seedAndPlan(dir);
  ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
  return dir;
}

/** `collect-critic-gaps` on the example's work.json and critic.json, with `--critic-dispatch <critic>`. */
const collectGaps = (critic: string) => ['collect-critic-gaps', '--work-state', 'work.json', '--critic-dispatch', critic, '--critic-results', 'critic.json'];

/** The `### C-…` vote blocks of the worker-facing format text, as a worker would copy them. */
const FORMAT = readFileSync(join(REPO, 'prompts/workers/gap-vote.md'), 'utf8');

describe('collect-critic-gaps → apply-critic-gaps', () => {
  it("collects the analysers' gap votes into a batch apply-critic-gaps accepts", () => {
    const dir = terminalExample();
    writeFileSync(
      join(dir, 'claude.md'),
      '### C-001\n**Verdict**: SURVIVES\n**Basis**: `create.ts:22` only checks amount > 0.\n\n### C-002: REFUTED\n\n**Basis**: advisory lock.\n',
    );
    writeFileSync(
      join(dir, 'codex.md'),
      '### c-001\r\nVerdict: survives\r\nBasis: confirmed.\r\n\r\n### C-002\r\nVerdict: Survives with caveat\r\nBasis: only without the lock table.\r\n',
    );
    const args = collectGaps('grok=completed:900000');
    const out = ok(
      [...args, ...workerFlags({ claude: 'claude.md', codex: 'codex.md' }, { claude: 'completed:1', codex: 'completed:2' }), '--output', 'batch.json'],
      dir,
    );
    expect(out).toMatchObject({ gaps: 2, criticStatus: 'completed' });
    const batch = JSON.parse(readFileSync(join(dir, 'batch.json'), 'utf8'));
    expect(batch.gaps[0].votes[0]).toEqual({ workerId: 'claude', verdict: 'agree', explanation: '`create.ts:22` only checks amount > 0.' });
    expect(ok(['apply-critic-gaps', '--work-state', 'work.json', '--results', 'batch.json'], dir)).toEqual({
      gaps: 2,
      accepted: 1,
      rejected: 0,
      unresolved: 1,
    });
  });

  it('a critic that timed out gives a batch with no gaps, which apply-critic-gaps accepts', () => {
    const dir = terminalExample();
    ok(['collect-critic-gaps', '--work-state', 'work.json', '--critic-dispatch', 'grok=timeout:1800000', '--output', 'batch.json'], dir);
    expect(JSON.parse(readFileSync(join(dir, 'batch.json'), 'utf8'))).toMatchObject({ criticDispatch: { status: 'timeout' }, dispatches: [], gaps: [] });
    expect(ok(['apply-critic-gaps', '--work-state', 'work.json', '--results', 'batch.json'], dir)).toEqual({
      gaps: 0,
      accepted: 0,
      rejected: 0,
      unresolved: 0,
    });
    ok(['finalize', '--work-state', 'work.json', '--output', 'final.json'], dir);
    expect(ok(['validate', '--state', 'final.json', '--kind', 'final'], dir).ok).toBe(true);
  });

  it('refuses, exit 2 with file and line, writing nothing', () => {
    const dir = terminalExample();
    writeFileSync(join(dir, 'claude.md'), '### C-001\n**Verdict**: SURVIVES\n**Basis**: x\n\n**Basis**: y\n\n### C-002\nVerdict: REFUTED\nBasis: z\n');
    const r = cli(
      [...collectGaps('grok=completed:1'), ...workerFlags({ claude: 'claude.md' }, { claude: 'completed:1', codex: 'error:1' }), '--output', 'batch.json'],
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/claude\.md: line 5: worker claude: gap C-001: two \*\*Basis\*\* fields in one block \(lines 3 and 5\)/);
    expect(existsSync(join(dir, 'batch.json'))).toBe(false);
    const wrong = cli(['collect-critic-gaps', '--work-state', 'work.json', '--critic-dispatch', 'claude=timeout:1', '--output', 'batch.json'], dir);
    expect(wrong.stderr).toMatch(/--critic-dispatch names claude, but the roster's critic is grok/);
  });

  it('the worker-facing format text parses to one vote per gap', () => {
    const blocks = [...FORMAT.matchAll(/```markdown[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.length).toBeGreaterThan(0);
    const dir = terminalExample();
    writeFileSync(join(dir, 'claude.md'), blocks[0].replace(/<gap-id-1>/g, 'C-001').replace(/<gap-id-2>/g, 'C-002'));
    const out = ok(
      [...collectGaps('grok=completed:1'), ...workerFlags({ claude: 'claude.md' }, { claude: 'completed:1', codex: 'timeout:1' }), '--output', 'batch.json'],
      dir,
    );
    expect(out.gaps).toBe(2);
  });
});
