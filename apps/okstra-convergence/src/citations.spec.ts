import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ok, removeTempDirs } from './test-support/bin.js';
import { autopilotProject, RUN, STATE, WORK, type AutopilotProject } from './test-support/autopilot.js';

// Issue 42 "where it shows", through the built bin on a copy of the sample project (whose sources every
// seed citation holds against): a finding whose cited file is gone is marked in the reverify prompts
// the other workers read, and in the HTML view.
const projects: AutopilotProject[] = [];
afterAll(() => {
  for (const p of projects.splice(0)) p.kill();
  removeTempDirs();
});

describe('citations in the reverify prompts and the view', () => {
  it('every seed citation of the sample holds; one whose file is removed is marked "does not hold" and shown unheld', () => {
    const p = autopilotProject();
    projects.push(p);
    ok(['view', '--work-state', WORK, '--html', 'before.html'], p.root);
    const before = p.read('before.html');
    expect(before).not.toMatch(/class="evidence unheld"/);
    expect(before).toMatch(/<div class="evidence" [^>]*>evidence: 1\/1 citations hold<\/div>/);
    // F-008 cites only src/payments/refunds/retry.ts:9.
    rmSync(join(p.root, 'src/payments/refunds/retry.ts'));
    ok(['plan-round', '--work-state', WORK, '--plan', `${STATE}/convergence-plan-r1-error-analysis-001.json`], p.root);
    ok(['render-prompts', '--plan', `${STATE}/convergence-plan-r1-error-analysis-001.json`], p.root);
    const prompts = readdirSync(join(p.root, RUN, 'prompts')).filter((n) => n.includes('-prompt-reverify-r1-'));
    const withF008 = prompts.map((n) => p.read(`${RUN}/prompts/${n}`)).filter((t) => t.includes('### F-008'));
    expect(withF008.length).toBeGreaterThan(0);
    for (const t of withF008) {
      expect(t).toContain('- src/payments/refunds/retry.ts:9 — does not hold: no such file in the project');
      expect(t).toContain(
        'Evidence check: none of the citations above holds in the project (okstra checked each file and line range). Judge F-008 on the code itself.',
      );
    }
    ok(['view', '--work-state', WORK, '--html', 'after.html'], p.root);
    expect(p.read('after.html')).toMatch(
      /<div class="evidence unheld" [^>]*>evidence: 0\/1 citations hold \(src\/payments\/refunds\/retry\.ts:9: missing\)<\/div>/,
    );
  }, 60_000);
});
