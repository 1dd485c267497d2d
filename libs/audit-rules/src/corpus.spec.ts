import { afterAll, describe, expect, it } from 'vitest';
import { runAudit } from './audit-project.js';
import { makeCorpusProject } from './test-support/corpus.js';

// The planted corpus (issue 15 "Done when"): every planted wrong run is caught by
// the invariant it was planted for, and no healthy twin raises any violation.
const { project, runs } = makeCorpusProject();
afterAll(() => project.cleanup());

describe('run-audit over the planted corpus', () => {
  it('catches every planted wrong run and raises no false alarm', async () => {
    const report = await runAudit(project.root);
    const byRun = new Map<string, string[]>();
    for (const v of report.violations) {
      const key = `${v.taskKey}|${v.runDir}`;
      byRun.set(key, [...(byRun.get(key) ?? []), v.invariant]);
    }
    const planted = runs.filter((r) => r.expect !== null);
    const healthy = runs.filter((r) => r.expect === null);
    const missed = planted.filter((r) => !(byRun.get(`${r.taskKey}|${r.runDir}`) ?? []).includes(r.expect!)).map((r) => r.caseId);
    const alarms = healthy.filter((r) => byRun.has(`${r.taskKey}|${r.runDir}`)).map((r) => `${r.caseId}: ${byRun.get(`${r.taskKey}|${r.runDir}`)!.join(',')}`);
    const known = new Set(runs.map((r) => `${r.taskKey}|${r.runDir}`));
    const stray = [...byRun.keys()].filter((k) => !known.has(k));
    const figures = { caught: planted.length - missed.length, planted: planted.length, falseAlarms: alarms.length, healthy: healthy.length };
    console.log(`corpus figures: ${JSON.stringify(figures)}\nmissed: ${missed.join(' ')}\nfalse alarms: ${alarms.join(' | ')}`);
    expect({ missed, alarms, stray }).toEqual({ missed: [], alarms: [], stray: [] });
  });
});
