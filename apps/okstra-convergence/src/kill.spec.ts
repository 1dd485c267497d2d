import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cli, ok, tempDir, removeTempDirs } from './test-support/bin.js';

afterAll(removeTempDirs);

/**
 * Reliability: real processes killed with SIGKILL at random points of
 * apply-round, seed (migration) and finalize. After every kill each state file
 * must parse and equal either its content before the command or the content an
 * uninterrupted run writes (outputs are deterministic, so that run is the oracle).
 * Kill points are spread over the whole run: a base offset that walks from 0 to
 * the measured duration of an uninterrupted run, plus a random 0–30 ms.
 */

const SEED = ['seed', '--groups', 'groups.json', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig'];

interface Scenario {
  name: string;
  args: string[];
  /** The state files the command may write. */
  files: string[];
  /** Prepare a template dir the command runs in (a fresh copy per kill). */
  prepare(dir: string): void;
}

function base(dir: string): void {
  for (const kind of ['groups', 'round-results', 'coverage-batch']) writeFileSync(join(dir, `${kind}.json`), cli(['example', '--kind', kind]).stdout);
  ok(SEED, dir);
  ok(['plan-round', '--work-state', 'work.json', '--plan', 'plan.json'], dir);
}

const scenarios: Scenario[] = [
  {
    name: 'apply-round',
    args: ['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'round-results.json'],
    files: ['work.json'],
    prepare: base,
  },
  {
    name: 'seed (migrating a v1.0 state)',
    args: SEED,
    files: ['work.json', 'mig'],
    prepare(dir) {
      base(dir);
      ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'round-results.json'], dir);
      const state = JSON.parse(readFileSync(join(dir, 'work.json'), 'utf8'));
      writeFileSync(join(dir, 'work.json'), JSON.stringify({ schemaVersion: '1.0', groups: state.seed, appliedRounds: state.rounds }, null, 2) + '\n');
    },
  },
  {
    name: 'finalize',
    args: ['finalize', '--work-state', 'work.json', '--output', 'final.json'],
    files: ['work.json', 'final.json'],
    prepare(dir) {
      base(dir);
      ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'round-results.json'], dir);
      ok(['apply-critic-gaps', '--work-state', 'work.json', '--results', 'coverage-batch.json'], dir);
    },
  },
];

/** Content of each watched file (a directory: each of its *.json files), `null` when absent. */
function contents(dir: string, files: string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const f of files) {
    const p = join(dir, f);
    if (f === 'mig') {
      for (const name of existsSync(p) ? readdirSync(p).filter((n) => n.endsWith('.json')) : []) out[`mig/${name}`] = readFileSync(join(p, name), 'utf8');
    } else out[f] = existsSync(p) ? readFileSync(p, 'utf8') : null;
  }
  return out;
}

function runAndKill(dir: string, args: string[], delayMs: number): Promise<{ killed: boolean; ms: number }> {
  return new Promise((resolve) => {
    const start = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: 'ignore' });
    let killed = false;
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, delayMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL' && killed, ms: Date.now() - start });
    });
  });
}

describe('SIGKILL during apply-round, seed and finalize', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: every state file is its old or its new content`, async () => {
      const template = tempDir('okstra-conv-kill-');
      scenario.prepare(template);
      const old = contents(template, scenario.files);

      const oracle = tempDir('okstra-conv-kill-');
      cpSync(template, oracle, { recursive: true });
      const full = await runAndKill(oracle, scenario.args, 60_000);
      const fresh = contents(oracle, scenario.files);
      expect(fresh).not.toEqual(old);

      const KILLS = 17;
      let killed = 0;
      const outcomes = { old: 0, new: 0 };
      for (let i = 0; killed < KILLS && i < 40; i++) {
        const dir = tempDir('okstra-conv-kill-');
        cpSync(template, dir, { recursive: true });
        const delay = Math.round((full.ms * 0.9 * (i % KILLS)) / KILLS + Math.random() * 30);
        const r = await runAndKill(dir, scenario.args, delay);
        if (r.killed) killed++;
        const now = contents(dir, scenario.files);
        for (const [file, text] of Object.entries(now)) {
          if (text !== null) expect(() => JSON.parse(text), `${file} after a kill at ${delay} ms`).not.toThrow();
          expect([old[file] ?? null, fresh[file] ?? null], `${file} after a kill at ${delay} ms`).toContainEqual(text);
        }
        if (Object.entries(fresh).every(([f, t]) => now[f] === t)) outcomes.new++;
        else outcomes.old++;
        // The state stays usable: run to the end after a kill, the command writes the oracle's content
        // (a lock left by the killed process is taken over once stale, so this is done once).
        if (i === Math.floor(KILLS / 2)) {
          await runAndKill(dir, scenario.args, 60_000);
          expect(contents(dir, scenario.files)).toEqual(fresh);
        }
      }
      expect(killed).toBe(KILLS);
      expect(outcomes.old).toBeGreaterThan(0);
    }, 180_000);
  }
});
