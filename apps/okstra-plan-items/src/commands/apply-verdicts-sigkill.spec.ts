// Reliability: SIGKILL at a random moment of apply-verdicts never leaves a
// partial data.json — only the old bytes or a complete new document (atomic
// temp + fsync + rename). At least 50 real kills of the real bin.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../test-support/run-bin.js';
import { envelopeFor, largeReportData } from '../test-support/large-plan.js';

const KILLS = 50;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'okstra-plan-items-kill-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function apply(data: string, verdicts: string): number | null {
  return spawnSync(process.execPath, [BIN, 'apply-verdicts', '--data', data, '--verdicts', verdicts], { cwd: dir, stdio: 'ignore' }).status;
}

/** Start apply-verdicts and SIGKILL it after `delayMs`; resolves to the signal that ended it (null if it exited first). */
function applyAndKill(data: string, verdicts: string, delayMs: number): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'apply-verdicts', '--data', data, '--verdicts', verdicts], { cwd: dir, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve(signal);
    });
  });
}

describe('apply-verdicts under SIGKILL (real processes)', () => {
  it(`leaves data.json either as before or fully applied across ≥ ${KILLS} kills`, async () => {
    const raw = largeReportData(50, 1500);
    const ids = (raw.implementationPlanning as { planBodyVerification: { planItems: Array<{ id: string }> } }).planBodyVerification.planItems.map((r) => r.id);
    writeFileSync(join(dir, 'a.json'), JSON.stringify(envelopeFor(ids, 'claude', 'AGREE', 1500)));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(envelopeFor(ids, 'codex', 'SUPPLEMENT', 1500)));
    const original = JSON.stringify(raw, null, 2) + '\n';
    // The only complete states: the original, and each envelope applied (computed by uninterrupted runs).
    const states = new Set([original]);
    for (const env of ['a.json', 'b.json']) {
      writeFileSync(join(dir, 'data.json'), original);
      expect(apply('data.json', env)).toBe(0);
      states.add(readFileSync(join(dir, 'data.json'), 'utf8'));
    }
    expect(states.size).toBe(3);
    writeFileSync(join(dir, 'data.json'), original);
    const started = Date.now();
    expect(apply('data.json', 'a.json')).toBe(0);
    const runMs = Date.now() - started;

    let kills = 0;
    let attempts = 0;
    while (kills < KILLS && attempts < KILLS * 4) {
      attempts++;
      // Spread the kill over the whole run: start-up, parse/validate, and the write.
      const delay = Math.floor((((attempts * 37) % 100) / 100) * runMs * 1.1);
      const signal = await applyAndKill('data.json', attempts % 2 ? 'b.json' : 'a.json', delay);
      if (signal === 'SIGKILL') kills++;
      const now = readFileSync(join(dir, 'data.json'), 'utf8');
      expect(states.has(now)).toBe(true);
      // A killed process cannot release its lock; proper-lockfile takes it over once stale (10 s).
      // Remove it here so the next run does not wait out the staleness window.
      rmSync(join(dir, 'data.json.lock'), { recursive: true, force: true });
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    // Each try is a node start-up plus a parse of the large plan: seconds each on a loaded machine.
  }, 600_000);
});
