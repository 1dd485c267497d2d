import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, cli, ok, removeTempDirs, snapshot, tempDir } from './test-support/bin.js';

afterAll(removeTempDirs);

const SEED = ['seed', '--groups', 'groups.json', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig'];
const APPLY = ['apply-round', '--work-state', 'work.json', '--plan', 'plan-r1.json', '--results', 'results.json'];
const json = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

/** A seeded example dir with the round-1 plan written (and, with `applied`, round 1 applied). */
function example(applied: boolean): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'groups.json'), cli(['example', '--kind', 'groups']).stdout);
  writeFileSync(join(dir, 'results.json'), cli(['example', '--kind', 'round-results']).stdout);
  writeFileSync(join(dir, 'batch.json'), cli(['example', '--kind', 'coverage-batch']).stdout);
  ok(SEED, dir);
  ok(['plan-round', '--work-state', 'work.json', '--plan', 'plan-r1.json'], dir);
  if (applied) ok(APPLY, dir);
  return dir;
}

/** Hand-edit `derived` so the first pending-then-decided finding reads `agreed` by consensus. */
function editDerived(dir: string): string {
  const state = json(join(dir, 'work.json'));
  const f = state.derived.findings.find((x: { status: string }) => x.status !== 'agreed');
  Object.assign(f, { status: 'agreed', reason: 'consensus', decidedInRound: 1 });
  writeFileSync(join(dir, 'work.json'), JSON.stringify(state));
  return f.id;
}

describe('a working state that does not replay is refused before any work (docs/convergence.md "Validation")', () => {
  const refusal = (id: string) =>
    new RegExp(`work\\.json: .*does not replay: derived\\.findings\\[\\d+\\]: finding ${id} diverges from the replay.*seed --restart-from-round0`);

  it('seed refuses to resume it, and --restart-from-round0 keeps a copy', () => {
    const dir = example(true);
    const id = editDerived(dir);
    const before = snapshot(dir);
    const r = cli(SEED, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(refusal(id));
    expect(r.stderr).toMatch(/corrupt state: /);
    expect(snapshot(dir)).toEqual(before);
    const restarted = ok([...SEED, '--restart-from-round0'], dir);
    expect(restarted).toMatchObject({ action: 'restarted', round: 0 });
    expect(readdirSync(join(dir, 'mig'))).toHaveLength(1);
  });

  it('plan-round, apply-round, apply-critic-gaps and finalize refuse it, touching nothing', () => {
    for (const [applied, args] of [
      [true, ['plan-round', '--work-state', 'work.json', '--plan', 'plan-r2.json']],
      [false, APPLY],
      [true, ['apply-critic-gaps', '--work-state', 'work.json', '--results', 'batch.json']],
      [true, ['finalize', '--work-state', 'work.json', '--output', 'final.json']],
    ] as const) {
      const dir = example(applied);
      const id = editDerived(dir);
      const before = snapshot(dir);
      const r = cli([...args], dir);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr, args[0]).toMatch(refusal(id));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(snapshot(dir)).toEqual(before);
    }
  });
});

describe('seed', () => {
  it('reused prints round, queueTerminal and counts', () => {
    const dir = example(true);
    ok(['finalize', '--work-state', 'work.json', '--output', 'final.json'], dir);
    const r = ok(SEED, dir);
    const final = json(join(dir, 'final.json'));
    expect(r).toMatchObject({
      action: 'reused',
      round: final.rounds,
      queueTerminal: true,
      counts: {
        pending: 0,
        agreed: final.counts.agreed,
        refuted: final.counts.refuted,
        unverifiable: final.counts.unverifiable,
        contested: final.counts.contested,
      },
    });
  });

  it("resumes with the roster and every finding's authors reordered (the digest does not depend on their order)", () => {
    const dir = example(true);
    const groups = json(join(dir, 'groups.json'));
    groups.roster.reverse();
    for (const f of groups.findings) f.authors.reverse();
    writeFileSync(join(dir, 'groups.json'), JSON.stringify(groups));
    expect(groups.findings.some((f: { authors: string[] }) => f.authors.length > 1)).toBe(true);
    expect(ok(SEED, dir)).toMatchObject({ action: 'resumed', round: 1 });
  });
});

describe('plan-round', () => {
  it('writes no plan on a terminal queue and says so', () => {
    const dir = example(true);
    const r = cli(['plan-round', '--work-state', 'work.json', '--plan', 'plan-r2.json'], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ plan: null, queueTerminal: true });
    expect(r.stderr).toMatch(/queue is terminal/);
    expect(existsSync(join(dir, 'plan-r2.json'))).toBe(false);
  });

  it('refuses a --plan that names another round', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'groups.json'), cli(['example', '--kind', 'groups']).stdout);
    ok(SEED, dir);
    const r = cli(['plan-round', '--work-state', 'work.json', '--plan', 'convergence-plan-r2-error-analysis-001.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/convergence-plan-r2-error-analysis-001\.json: --plan names round 2, but the next round is 1/);
    expect(existsSync(join(dir, 'convergence-plan-r2-error-analysis-001.json'))).toBe(false);
  });
});

describe('error texts quoted in prompts/ are the texts the tool prints', () => {
  it('every `Exit 2 "…"` quote of the convergence lead flow appears in a real refusal', () => {
    const prompt = readFileSync(join(REPO, 'prompts/lead/convergence-rounds.md'), 'utf8');
    const quotes = [...prompt.matchAll(/Exit 2[^\n]*/g)].flatMap((m) => [...m[0].matchAll(/"([^"]+)"/g)].map((q) => q[1]));
    expect(quotes.length).toBeGreaterThan(0);
    const printed: string[] = [];
    const other = example(true);
    const groups = json(join(other, 'groups.json'));
    groups.roundLimit += 1;
    writeFileSync(join(other, 'groups.json'), JSON.stringify(groups));
    printed.push(cli(SEED, other).stderr);
    const corrupt = example(true);
    writeFileSync(join(corrupt, 'work.json'), '{"schemaVersion": "1.1"');
    printed.push(cli(SEED, corrupt).stderr);
    const edited = example(true);
    editDerived(edited);
    printed.push(cli(SEED, edited).stderr);
    for (const q of quotes)
      expect(
        printed.some((text) => text.includes(q)),
        q,
      ).toBe(true);
  });
});
