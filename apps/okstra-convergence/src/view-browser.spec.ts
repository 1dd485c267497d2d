// `okstra-convergence view` in a real headless browser: the system Chromium (Debian `chromium`, installed
// by .ci/run), driven over CDP by playwright-core (no browser of its own). Screenshots are kept under
// tmp/view-screenshots/ at the repository root (gitignored) as test artifacts.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ok, REPO, removeTempDirs, tempDir } from './test-support/bin.js';
import { autopilotProject, DISAGREEING_VERDICTS, FINAL, runAutopilot, WORK, type AutopilotProject } from './test-support/autopilot.js';

/** The sample with grok as a third analyser and workers that disagree (the demo's run): every terminal status. */
function disagreeingProject(): AutopilotProject {
  return autopilotProject({ STUB_FAIL_FIRST: '', STUB_VERDICTS: DISAGREEING_VERDICTS }, { thirdAnalyser: 'grok' });
}

const CHROMIUM = process.env.OKSTRA_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = join(REPO, 'tmp', 'view-screenshots');
const projects: AutopilotProject[] = [];
afterAll(() => {
  for (const p of projects.splice(0)) p.kill();
  removeTempDirs();
});

/** Open `html` in a fresh Chromium profile; what the page requested, each finding row's box, and a screenshot. */
async function inspect(html: string, shot: string) {
  const profile = mkdtempSync(join(tmpdir(), 'okstra-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: FLAGS, headless: true });
  try {
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const url = pathToFileURL(html).href;
    await page.goto(url, { waitUntil: 'load' });
    const rows = await page.$$eval('tbody tr.finding', (trs) =>
      trs.map((tr) => {
        const box = tr.getBoundingClientRect();
        return { id: tr.id, status: tr.className.replace(/^finding (gap )?/, ''), width: box.width, height: box.height };
      }),
    );
    // Expanding a vote shows its Basis.
    // $$eval types its elements through playwright's own declarations, so the
    // spec needs no DOM lib (the project typechecks for Node only).
    const basis = await page.$$eval('details.vote', (ds) => {
      const d = ds[0];
      if (!d) return null;
      d.setAttribute('open', '');
      const b = d.querySelector('.basis');
      return b && b.getBoundingClientRect().height > 0 ? b.textContent : null;
    });
    // The colour each vote kind is drawn in (its summary's computed colour), and the totals as shown.
    const voteColors = await page.$$eval('details.vote', (ds) => {
      const out: Record<string, string> = {};
      for (const d of ds) {
        const kind = [...d.classList].find((c) => c !== 'vote' && c !== 'retry');
        const summary = d.querySelector('summary');
        if (kind && summary) out[kind] = summary.ownerDocument.defaultView!.getComputedStyle(summary).color;
      }
      return out;
    });
    const rowBackgrounds = await page.$$eval('tbody tr.finding:not(.gap) th[scope=row]', (ths) =>
      Object.fromEntries(
        ths.map((th) => [th.parentElement!.className.replace(/^finding /, ''), th.ownerDocument.defaultView!.getComputedStyle(th).backgroundColor]),
      ),
    );
    const totals = await page.$$eval('.totals .total', (lis) =>
      Object.fromEntries(lis.map((li) => [li.getAttribute('data-status'), Number(li.getAttribute('data-count'))])),
    );
    const legend = await page.$$eval('.legend .chip', (cs) => cs.map((c) => c.textContent));
    const workerVotes = await page.$$eval('table.worker-votes tbody tr', (trs) => trs.map((tr) => tr.id));
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, shot), fullPage: true });
    return { rows, basis, voteColors, rowBackgrounds, totals, legend, workerVotes, others: requests.filter((r) => r !== url) };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Three analysers, round limit 1: F-001 splits (REFUTED vs SURVIVES) and ends contested; the rest agree or are refuted. */
function contestedState(): string {
  const dir = tempDir('okstra-view-');
  const finding = (id: string, author: string, title: string) => ({ id, title, claim: `${title}.`, authors: [author], evidence: [`src/${id}.ts:1`] });
  writeFileSync(
    join(dir, 'groups.json'),
    JSON.stringify({
      schemaVersion: '1.0',
      mode: 'adversarial',
      roundLimit: 1,
      roster: ['a', 'b', 'c'].map((w) => ({ workerId: w, provider: w, role: 'analyser', modelExecutionValue: `${w}-model` })),
      findings: [finding('F-001', 'a', 'Lock order <script>alert(1)</script>'), finding('F-002', 'b', 'Leak'), finding('F-003', 'c', 'Off by one')],
    }),
  );
  ok(['seed', '--groups', 'groups.json', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig'], dir);
  expect(ok(['plan-round', '--work-state', 'work.json', '--plan', 'plan.json'], dir).round).toBe(1);
  const verdict = (w: string, id: string) => (id === 'F-001' ? (w === 'b' ? 'REFUTED' : 'SURVIVES') : id === 'F-003' ? 'REFUTED' : 'SURVIVES');
  const batches = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')).batches as Array<{ workerId: string; findingIds: string[] }>;
  const flags: string[] = [];
  for (const b of batches) {
    writeFileSync(
      join(dir, `${b.workerId}.md`),
      b.findingIds.map((id) => `### ${id}\n**Verdict**: ${verdict(b.workerId, id)}\n**Basis**: ${b.workerId} read \`src/${id}.ts:1\`.\n`).join('\n'),
    );
    flags.push('--result', `${b.workerId}=${b.workerId}.md`, '--dispatch', `${b.workerId}=completed:1000`);
  }
  ok(['collect-results', '--plan', 'plan.json', '--mode', 'adversarial', ...flags, '--output', 'results.json'], dir);
  ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
  ok(['view', '--work-state', 'work.json', '--html', 'view.html'], dir);
  return join(dir, 'view.html');
}

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('view in headless Chromium', () => {
  it('contested findings come first; every finding id sits in a row with a non-zero box; a Basis shows on expand; zero network requests', async () => {
    const { rows, basis, voteColors, totals, legend, workerVotes, others } = await inspect(contestedState(), 'contested.png');
    expect(rows.map((r) => `${r.id}:${r.status}`)).toEqual(['F-001:contested', 'F-003:refuted', 'F-002:agreed']);
    // The votes are coloured: REFUTED (disagree) and SURVIVES (agree) in the legend's two different colours.
    expect(voteColors).toEqual({ agree: 'rgb(26, 127, 55)', disagree: 'rgb(198, 40, 40)' });
    expect(totals).toEqual({ total: 3, contested: 1, pending: 0, unverifiable: 0, refuted: 1, agreed: 1 });
    expect(legend).toEqual(['✓ agree', '✗ disagree', '+ supplement', '? unverifiable']);
    expect(workerVotes).toEqual(['worker-a', 'worker-b', 'worker-c']);
    for (const r of rows) expect(r.width * r.height, r.id).toBeGreaterThan(0);
    expect(basis).toMatch(/read `src\/F-00\d\.ts:1`/);
    expect(others).toEqual([]);
  }, 60_000);

  it('a run whose workers disagree: every terminal status shown in its colour, totals = the final counts validate --kind final accepts', async () => {
    const p = disagreeingProject();
    projects.push(p);
    expect(runAutopilot(p, ['--until-terminal']).code).toBe(0);
    const validated = ok(['validate', '--state', FINAL, '--kind', 'final'], p.root);
    expect(validated.ok).toBe(true);
    ok(['view', '--work-state', WORK, '--final-state', FINAL, '--html', 'view.html'], p.root);
    const { rows, voteColors, rowBackgrounds, totals, workerVotes, others } = await inspect(join(p.root, 'view.html'), 'disagreement-run.png');
    const counts = p.json(FINAL).counts;
    expect(totals).toEqual({
      total: counts.total,
      agreed: counts.agreed,
      refuted: counts.refuted,
      unverifiable: counts.unverifiable,
      contested: counts.contested,
    });
    expect(totals).toMatchObject({ contested: 1, refuted: 1, unverifiable: 1 });
    // contested first; each terminal status has its own background; each vote kind its own colour
    expect(rows[0]!.status).toBe('contested');
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['contested', 'refuted', 'unverifiable', 'agreed']));
    expect(new Set(Object.values(rowBackgrounds)).size).toBe(4);
    expect(new Set(Object.values(voteColors)).size).toBe(Object.keys(voteColors).length);
    expect(Object.keys(voteColors).sort()).toEqual(['agree', 'disagree', 'unverifiable']);
    expect(workerVotes).toEqual(['worker-claude', 'worker-codex', 'worker-grok']);
    expect(others).toEqual([]);
  }, 300_000);

  it('the view of an autopilot run (a failure, its retry round, the critic gaps) passes the same checks', async () => {
    const p = autopilotProject();
    projects.push(p);
    expect(runAutopilot(p, ['--until-terminal']).code).toBe(0);
    // The seed's findings and the critic's gaps counted apart (a user read 17 "findings" beside a total of 14).
    const printed = ok(['view', '--work-state', WORK, '--final-state', FINAL, '--html', 'view.html'], p.root);
    expect(printed).toMatchObject({ findings: 14, criticGaps: 3 });
    const { rows, others } = await inspect(join(p.root, 'view.html'), 'autopilot-run.png');
    expect(rows).toHaveLength(17); // 14 findings + 3 critic gaps
    for (const r of rows) expect(r.width * r.height, r.id).toBeGreaterThan(0);
    expect(others).toEqual([]);
    expect(p.read('view.html')).toMatch(/codex <em>retry<\/em>/);
    expect(p.read('view.html')).toMatch(/codex <em>error<\/em>/);
  }, 180_000);
});
