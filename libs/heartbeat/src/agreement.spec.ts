// Property: the live probe (real files, tail read, confirm re-read of sidecar AND row) and the post-hoc
// audit (cadenceBreaches over the whole final sidecar) agree at every instant of a dispatch, for
// generated sidecars: out-of-order lines, long gaps, earlier-dispatch lines above and below, quoted
// and indented fakes, CRLF, no trailing newline. Deterministic (seeded); a few seconds in total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '@okstra/core/test-support';
import { probeWorkers } from './probe.js';
import { cadenceBreaches, type Budget } from './rule.js';
import { makeProject, row, type TestProject } from './test-support/fixtures.js';

/** One line of the sidecar and the instant (epoch ms) the worker appends it. */
interface Line {
  text: string;
  arrival: number;
}

interface Case {
  seed: number;
  startedAt: number;
  endedAt: number;
  lines: Line[];
  eol: '\n' | '\r\n';
  trailingNewline: boolean;
}

const S = 1000;
const T0 = Date.parse('2026-11-29T08:00:00Z');

/** A stamp in one of the forms workers write (Z, fraction, offset) — all the same instant. */
function stamp(ms: number, rand: () => number): string {
  const iso = new Date(ms).toISOString();
  const r = rand();
  if (r < 0.5) return iso.replace('.000Z', 'Z');
  if (r < 0.75) return iso;
  const shifted = new Date(ms + 2 * 3600 * S).toISOString().replace('.000Z', '');
  return `${shifted}+02:00`;
}

function generate(seed: number): Case {
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const startedAt = T0;
  const endedAt = T0 + int(5 * 60, 45 * 60) * S;
  const lines: Line[] = [{ text: `# Audit sidecar (case ${seed})`, arrival: -Infinity }];
  const beat = (at: number, arrival: number, verb = 'checking the queue') => lines.push({ text: `- PROGRESS: ${stamp(at, rand)} round-1 ${verb}`, arrival });
  if (rand() < 0.5) for (let i = 0; i < int(1, 4); i++) beat(T0 - (3600 - 300 * i) * S, -Infinity, 'earlier dispatch'); // the reused sidecar
  if (rand() < 0.3) {
    const early = T0 - int(0, 30) * S; // heartbeat at launch, worker clock a little behind
    beat(early, early, 'launched');
  }
  let w = T0;
  while (w < endedAt + 600 * S) {
    const r = rand();
    w += (r < 0.7 ? int(20, 300) : r < 0.9 ? int(300, 600) : int(600, 1200)) * S;
    beat(w, w);
    if (rand() < 0.15) beat(w - int(1, 900) * S, w, 'quoted an older heartbeat'); // out of order, appended with the line above
    if (rand() < 0.1) beat(T0 - int(31, 7200) * S, w, 'copied from the first dispatch'); // an earlier dispatch's line below this dispatch's
    if (rand() < 0.3) {
      lines.push(
        { text: `  - PROGRESS: ${new Date(w + 90 * S).toISOString()} round-1 indented, not a heartbeat`, arrival: w },
        { text: `> - PROGRESS: ${new Date(w + 90 * S).toISOString()} round-1 quoted, not a heartbeat`, arrival: w },
        { text: 'Read `src/queue.ts:42`; see PROGRESS: above.', arrival: w },
      );
    }
  }
  return { seed, startedAt, endedAt, lines, eol: rand() < 0.5 ? '\r\n' : '\n', trailingNewline: rand() < 0.5 };
}

/** The sidecar as it stands at instant `t` (every line appended by then). */
function textAt(c: Case, t: number): string {
  const visible = c.lines.filter((l) => l.arrival <= t).map((l) => l.text);
  return visible.join(c.eol) + (c.trailingNewline ? c.eol : '');
}

/**
 * Poll instants derived from the generated data (not from the audit's answer): half a second
 * either side of every instant where a verdict can change — an arrival, a budget running out,
 * those minus the confirm window, the launch grace, the end — plus random ones. Whole-second
 * stamps keep every boundary off these instants.
 */
function instants(c: Case, budget: Budget, rand: () => number): number[] {
  const critical = [c.startedAt, c.endedAt, c.startedAt + budget.launchGraceS * S];
  for (const l of c.lines) {
    const m = /^- PROGRESS: (\S+)/.exec(l.text);
    if (!m || l.arrival === -Infinity) continue;
    critical.push(l.arrival, Date.parse(m[1]) + budget.maxIdleS * S);
  }
  const out = new Set<number>();
  for (const x of critical) for (const d of [0, -budget.stallConfirmS * S]) for (const e of [-500, 500]) out.add(x + d + e);
  for (let i = 0; i < 8; i++) out.add(c.startedAt + Math.floor(rand() * ((c.endedAt - c.startedAt) / S)) * S + 500);
  return [...out].filter((t) => t >= c.startedAt && t < c.endedAt).sort((a, b) => a - b);
}

const BUDGETS: Budget[] = [
  { maxIdleS: 360, launchGraceS: 120, stallConfirmS: 180 }, // the defaults (what run-audit uses)
  { maxIdleS: 300, launchGraceS: 90, stallConfirmS: 100 },
  { maxIdleS: 200, launchGraceS: 60, stallConfirmS: 0 },
];

let p: TestProject;
beforeAll(() => {
  p = makeProject();
});
afterAll(() => p.cleanup());

describe('live probe and post-hoc audit agree at every instant (generated sidecars)', () => {
  const cases = Array.from({ length: 24 }, (_, i) => generate(1000 + i));

  it.each(BUDGETS.map((b) => [`${b.maxIdleS}/${b.launchGraceS}/${b.stallConfirmS} s`, b] as const))('budget %s', async (_name, budget) => {
    const rel = `${p.runRel}/worker-results/claude-error-analysis-001.audit.md`;
    const inProgress = row('claude', { startedAt: new Date(T0).toISOString() });
    let checked = 0;
    let stalledSeen = 0;
    for (const c of cases) {
      const finalText = textAt(c, Infinity);
      const breaches = cadenceBreaches(finalText, { startedAt: new Date(c.startedAt), endedAt: new Date(c.endedAt) }, budget);
      const rand = seededRandom(c.seed * 7);
      for (const t of instants(c, budget, rand)) {
        p.writeTeamState([inProgress]);
        p.write(rel, textAt(c, t));
        let now = t;
        const clock = {
          now: () => new Date(now),
          sleep: async (ms: number) => {
            now += ms;
            p.write(rel, textAt(c, now));
            if (now >= c.endedAt) p.writeTeamState([{ ...inProgress, status: 'completed', endedAt: new Date(c.endedAt).toISOString() }]);
          },
        };
        const [r] = await probeWorkers([{ teamStatePath: p.teamStatePath, workerId: 'claude' }], { ...clock, ...budget });
        const expected = breaches.some((b) => Date.parse(b.stalledFrom) < t && t < Date.parse(b.stalledTo));
        const at = { seed: c.seed, t: new Date(t).toISOString(), verdict: r.verdict };
        expect({ ...at, stalled: r.verdict === 'stalled' }).toEqual({ ...at, stalled: expected });
        if (r.verdict === 'stalled' && r.evidence.newestHeartbeatAt) expect(r.reason).toContain(r.evidence.newestHeartbeatAt);
        checked++;
        if (expected) stalledSeen++;
      }
    }
    // The generator must actually exercise both answers.
    expect(checked).toBeGreaterThan(400);
    expect(stalledSeen).toBeGreaterThan(40);
  });
});
