import { chmodSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TASK_ROOT_REL } from '@okstra/audit-rules/test-support';
import { makeHome, runBin, runBinAsync } from '../test-support/bin.js';
import { cleanup, errorIssueSetup, onCleanup } from '../test-support/error-issue-setup.js';
import { FORBIDDEN, makePlantedProject, PLANTED_IDENTITIES } from '../test-support/planted.js';

afterEach(cleanup);
const setup = errorIssueSetup;

/** The planted identities found (case-insensitive) in `text`. */
function leaks(text: string): string[] {
  return PLANTED_IDENTITIES.filter((id) => text.toLowerCase().includes(id.toLowerCase()));
}

function expectNoIdentity(text: string, where: string) {
  for (const bad of FORBIDDEN) expect(text.toLowerCase().includes(bad.toLowerCase()), `${where} contains '${bad}'`).toBe(false);
}

describe('error-issue plan', () => {
  it('clusters, gates, classifies and keeps only okstra-defect candidates; deterministic', () => {
    const t = setup();
    const r = t.plan();
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.matching).toEqual({ status: 'checked', reason: null });
    expect(out.repo).toBe('devonshin/okstra');
    const plan = t.readPlan();
    expect(plan.inputs).toEqual({ projects: 1, records: 12, violations: 2, skippedLines: 2 });
    expect(plan.gate).toEqual({ minRuns: 2, minRecords: 2 });
    const classes = plan.clusters
      .map((c: { classification: string; records: number; runs: number; candidate: boolean }) => [c.classification, c.records, c.runs, c.candidate])
      .sort();
    expect(classes).toEqual([
      ['environment-policy', 2, 2, false],
      ['okstra-defect', 2, 2, true],
      ['okstra-defect', 2, 2, true],
      ['okstra-defect', 4, 2, true],
      ['target-code', 2, 2, false],
    ]);
    expect(plan.candidates.map((c: { title: string; decision: string }) => [c.title, c.decision]).sort()).toEqual([
      ["[okstra-defect] okstra-convergence OKSTRA_INTERNAL: internal error (this is a bug, please report it): cannot read 'verdict' of…", 'create'],
      ['[okstra-defect] okstra-team E_LOCK: lock held by <path> on <host> for <path>', 'create'],
      ['[okstra-defect] run-audit result-missing: a completed worker has no result file', 'create'],
    ]);
    expect(r.stderr).toContain('line 6: skipped, not valid JSON');
    expect(r.stderr).toContain('line 7: skipped, not an error record (message:');
    const again = readFileSync(t.planFile, 'utf8');
    expect(t.plan().code).toBe(0);
    expect(readFileSync(t.planFile, 'utf8')).toBe(again);
  });

  it('planted identities: 0 leaks into any title, body, plan file, or stub-gh argv/stdin', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const plan = t.readPlan();
    const sent = t.submit('--approve', 'all');
    const calls = t.gh.calls();
    const outbound = [JSON.stringify({ ...plan, identityDigests: [] }), ...calls.flatMap((c) => [c.argv.join(' '), c.stdin])];
    const leaked = [...new Set(outbound.flatMap(leaks))];
    console.log(`error-issue figures: {"leaks":${leaked.length},"plantedIdentities":${PLANTED_IDENTITIES.length}} ${leaked.join(' | ')}`);
    expect(leaked).toEqual([]);
    expectNoIdentity(outbound[0]!, 'plan file');
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout).sent).toHaveLength(3);
    expect(calls.filter((c) => c.argv[1] === 'create')).toHaveLength(3);
    for (const c of calls) {
      expectNoIdentity(c.argv.join(' '), 'gh argv');
      expectNoIdentity(c.stdin, 'gh stdin');
    }
  });

  it('gh missing: plan still works with matching unchecked; submit refuses with a hint, nothing sent', () => {
    const t = setup();
    rmSync(join(t.gh.dir, 'gh'));
    const r = t.plan();
    expect(r.code).toBe(0);
    expect(t.readPlan().matching).toEqual({ status: 'unchecked', reason: 'gh is not installed' });
    expect(r.stderr).toContain('matching unchecked: gh is not installed');
    const s = t.submit('--approve', 'all');
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/matching was unchecked .*nothing was sent \(re-run okstra error-issue plan with gh installed and authenticated\)/);
  });

  it('a gh that cannot be started (not executable) is named so, not "not installed"; a gh ended by a signal names the signal; nothing sent', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    chmodSync(join(t.gh.dir, 'gh'), 0o644);
    const s = t.submit('--approve', 'all');
    expect(s.code).toBe(2);
    expect(s.stderr).toBe('okstra-run-audit: gh could not be started: spawn gh EACCES: nothing was sent (check the gh found on PATH)\n');
    const p = t.plan();
    expect(p.code).toBe(0);
    expect(t.readPlan().matching).toEqual({ status: 'unchecked', reason: 'gh could not be started: spawn gh EACCES' });
    // auth passes, every other call ends by SIGTERM: the reason says so (execa's runner said 'exited undefined')
    writeFileSync(join(t.gh.dir, 'gh'), '#!/bin/sh\n[ "$1" = auth ] && exit 0\nkill -TERM $$\n');
    chmodSync(join(t.gh.dir, 'gh'), 0o755);
    expect(t.plan().code).toBe(0);
    expect(t.readPlan().matching).toEqual({ status: 'unchecked', reason: 'gh issue list ended by SIGTERM: (no output)' });
  });

  it('gh unauthenticated at plan time: matching unchecked; at submit time: exit 2 with the auth hint, only auth status called', () => {
    const t = setup({ authExit: 1 });
    expect(t.plan().code).toBe(0);
    expect(t.readPlan().matching).toEqual({ status: 'unchecked', reason: 'gh is not authenticated' });
    expect(t.gh.calls().map((c) => c.argv.join(' '))).toEqual(['auth status']);
    t.gh.setScenario({});
    expect(t.plan().code).toBe(0);
    t.gh.setScenario({ authExit: 1 });
    const before = t.gh.calls().length;
    const s = t.submit('--approve', 'all');
    expect(s.code).toBe(2);
    expect(s.stderr).toBe('okstra-run-audit: gh is not authenticated: nothing was sent (run gh auth login)\n');
    expect(
      t.gh
        .calls()
        .slice(before)
        .map((c) => c.argv.join(' ')),
    ).toEqual(['auth status']);
    expect(t.readPlan().candidates.every((c: { submitted: unknown }) => c.submitted === null)).toBe(true);
  });

  it('matches through gh JSON on the embedded fingerprint: comment on an open match, skip when already reported', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const [a, b] = t.readPlan().candidates;
    t.gh.setScenario({
      issues: [
        { number: 3, state: 'OPEN', url: 'https://github.com/devonshin/okstra/issues/3', body: `<!-- okstra-fingerprint: ${a.id} -->`, comments: [] },
        { number: 4, state: 'OPEN', url: 'https://github.com/devonshin/okstra/issues/4', body: `ranked first but mentions ${b.id} only` },
        {
          number: 5,
          state: 'OPEN',
          url: 'https://github.com/devonshin/okstra/issues/5',
          body: `<!-- okstra-fingerprint: ${b.id} -->`,
          comments: [{ body: `<!-- okstra-evidence: ${b.evidenceDigest} -->` }],
        },
      ],
    });
    expect(t.plan().code).toBe(0);
    const byId = Object.fromEntries(t.readPlan().candidates.map((c: { id: string }) => [c.id, c]));
    expect(byId[a.id]).toMatchObject({ decision: 'comment', match: { number: 3, state: 'open' } });
    expect(byId[b.id]).toMatchObject({ decision: 'skip', match: { number: 5 } });
    const search = t.gh.calls().find((c) => c.argv[1] === 'list')!;
    expect(search.argv).toEqual(
      [
        'issue',
        'list',
        '--repo',
        'devonshin/okstra',
        '--state',
        'all',
        '--search',
        `${a.id} in:body`,
        '--json',
        'number,title,body,state,url,comments',
        '--limit',
        '100',
      ].map((x) => (x.endsWith(' in:body') ? search.argv[7]! : x)),
    );
    const s = t.submit('--approve', 'all');
    expect(s.code).toBe(0);
    const third = t.readPlan().candidates.find((c: { id: string }) => c.id !== a.id && c.id !== b.id);
    expect(JSON.parse(s.stdout)).toMatchObject({
      sent: [
        { id: a.id, action: 'comment', url: 'https://github.com/devonshin/okstra/issues/3#issuecomment-1' },
        { id: third.id, action: 'create' },
      ],
      skipped: [{ id: b.id }],
    });
    const comment = t.gh.calls().find((c) => c.argv[1] === 'comment')!;
    expect(comment.argv).toEqual(['issue', 'comment', '3', '--repo', 'devonshin/okstra', '--body-file', '-']);
    expect(comment.stdin).toContain(`<!-- okstra-fingerprint: ${a.id} -->`);
  });

  it('a failed gh issue list leaves matching unchecked, its reason anonymized', () => {
    const t = setup({ failList: 'HTTP 401: Bad credentials for zorblax at https://build-7.zorblax-corp.internal/api' });
    expect(t.plan().code).toBe(0);
    expect(t.readPlan().matching).toEqual({
      status: 'unchecked',
      reason: 'gh issue list exited 1: HTTP <n>: Bad credentials for <name> at <url>'.replace('<n>', '401'),
    });
    expect(t.readPlan().candidates.every((c: { decision: string; match: unknown }) => c.decision === 'create' && c.match === null)).toBe(true);
  });

  it('several project roots: one cluster across projects, counted per project', () => {
    const t = setup();
    const second = makePlantedProject();
    onCleanup(() => second.cleanup());
    expect(t.plan('--project-root', second.root).code).toBe(0);
    const plan = t.readPlan();
    expect(plan.inputs).toMatchObject({ projects: 2, records: 24, violations: 4 });
    const counts = plan.candidates.map((c: { counts: { records: number; runs: number; projects: number } }) => c.counts);
    expect(counts.sort((a: { records: number }, b: { records: number }) => a.records - b.records)).toEqual([
      { records: 4, runs: 4, projects: 2 },
      { records: 4, runs: 4, projects: 2 },
      { records: 8, runs: 4, projects: 2 },
    ]);
    expectNoIdentity(JSON.stringify({ ...plan, identityDigests: [] }), 'plan file');
  });

  it('a 200,000-character token in an errors log is anonymized in bounded time (was quadratic)', () => {
    const t = setup();
    const huge = 'a-'.repeat(100_000);
    const log = `${TASK_ROOT_REL}/errors-2026-11-30.jsonl`;
    const rec = (seq: string) =>
      JSON.stringify({
        source: 'okstra-convergence',
        kind: 'OKSTRA_INTERNAL',
        exitCode: 70,
        taskType: 'error-analysis',
        seq,
        message: `internal error: cannot parse ${huge}`,
      });
    t.project.write(log, `${rec('001')}\n${rec('002')}\n`);
    const r = t.plan();
    expect(r.code).toBe(0);
    const text = readFileSync(t.planFile, 'utf8');
    expect(text).not.toContain('a-a-a-');
    const plan = JSON.parse(text);
    expect(plan.inputs).toMatchObject({ records: 14, skippedLines: 2 });
    expect(plan.candidates.map((c: { title: string }) => c.title)).toContain(
      '[okstra-defect] okstra-convergence OKSTRA_INTERNAL: internal error: cannot parse <secret>',
    );
  });

  it('a UTF-8 BOM on line 1 of an errors log is stripped, not a skipped line', () => {
    const t = setup();
    const log = `${TASK_ROOT_REL}/errors-2026-11-28.jsonl`;
    t.project.write(log, '\uFEFF' + t.project.read(log));
    const r = t.plan();
    expect(r.code).toBe(0);
    expect(t.readPlan().inputs).toEqual({ projects: 1, records: 12, violations: 2, skippedLines: 2 });
    expect(r.stderr).not.toContain('errors-2026-11-28.jsonl: line 1');
  });

  it('--repo must be <owner>/<name> in GitHub characters: exit 2 otherwise', () => {
    const t = setup();
    for (const bad of ['-R/x', 'owner/-x', 'owner/..', 'owner/.', 'owner/a..b', '../x', 'a/b/c', 'o_wner/x', 'owner/']) {
      const r = t.plan('--repo', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/--repo expects <owner>\/<name>/);
    }
    expect(t.plan('--repo', 'my-org/repo.name_2').code).toBe(0);
    expect(t.readPlan().repo).toBe('my-org/repo.name_2');
  });

  it('a project with no candidates does not say submit will refuse until gh auth login', () => {
    const t = setup({ authExit: 1 }, { errorIssue: { gate: { minRuns: 9 } } });
    const r = t.plan();
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.candidates).toEqual([]);
    expect(out.matching).toEqual({ status: 'not-needed', reason: 'no candidates to match' });
    expect(t.readPlan().matching).toEqual(out.matching);
    expect(r.stderr).not.toMatch(/unchecked|auth login|refuse/);
    expect(t.gh.calls()).toEqual([]);
  });

  it('repo and gate from ~/.okstra/config.json; --repo wins; an invalid config is exit 2', () => {
    const t = setup({}, { errorIssue: { repo: 'acme/okstra-fork', gate: { minRuns: 3 } } });
    expect(t.plan().code).toBe(0);
    expect(t.readPlan()).toMatchObject({ repo: 'acme/okstra-fork', gate: { minRuns: 3, minRecords: 2 }, candidates: [] });
    expect(t.plan('--repo', 'me/other').code).toBe(0);
    expect(t.readPlan().repo).toBe('me/other');
    expect(t.plan('--repo', 'not a repo').code).toBe(2);
    writeFileSync(join(t.home, '.okstra', 'config.json'), '{"errorIssue": {"repo": 5}}');
    const bad = t.plan();
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/config\.json: errorIssue\.repo: /);
  });
});

describe('error-issue: each issue is filed once', () => {
  it('two concurrent submit --approve X,Y with a slow gh create each issue once', async () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const ids = t
      .readPlan()
      .candidates.map((c: { id: string }) => c.id)
      .slice(0, 2);
    t.gh.setScenario({ sendDelayMs: 600 });
    const args = ['error-issue', 'submit', '--plan', t.planFile, '--approve', ids.join(',')];
    const [a, b] = await Promise.all([runBinAsync(args, { env: t.env }), runBinAsync(args, { env: t.env })]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const creates = t.gh.calls().filter((c) => c.argv[1] === 'create');
    const duplicates = creates.length - ids.length;
    console.log(`error-issue figures: {"creates":${creates.length},"approved":${ids.length},"duplicateFilings":${duplicates}}`);
    expect(creates.map((c) => c.argv[5]).sort()).toEqual(
      t
        .readPlan()
        .candidates.filter((c: { id: string }) => ids.includes(c.id))
        .map((c: { title: string }) => c.title)
        .sort(),
    );
    const sent = [...JSON.parse(a.stdout).sent, ...JSON.parse(b.stdout).sent].map((x: { id: string }) => x.id).sort();
    expect(sent).toEqual([...ids].sort());
    const skipped = [...JSON.parse(a.stdout).skipped, ...JSON.parse(b.stdout).skipped];
    expect(skipped.every((x: { reason: string }) => /^already submitted: https:/.test(x.reason))).toBe(true);
  });

  it('re-running plan over a submitted plan keeps each URL and fingerprint (no reliance on a lagging search index)', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const [a] = t.readPlan().candidates;
    expect(t.submit('--approve', a.id).code).toBe(0);
    // GitHub's search index has not caught up: the listing still finds nothing.
    t.gh.setScenario({ issues: [] });
    expect(t.plan().code).toBe(0);
    const again = t.readPlan().candidates.find((c: { id: string }) => c.id === a.id);
    expect(again.submitted).toEqual({ action: 'create', url: 'https://github.com/devonshin/okstra/issues/101' });
    const s = t.submit('--approve', 'all');
    expect(JSON.parse(s.stdout).skipped).toContainEqual({ id: a.id, reason: 'already submitted: https://github.com/devonshin/okstra/issues/101' });
    expect(t.gh.calls().filter((c) => c.argv[1] === 'create' && c.argv[5] === a.title)).toHaveLength(1);
  });

  it('an existing issue whose title has parentheses and @ still matches (by its fingerprint marker)', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const internal = t.readPlan().candidates.find((c: { title: string }) => c.title.includes('(this is a bug'));
    t.gh.setScenario({
      issues: [
        {
          number: 12,
          state: 'OPEN',
          title: `${internal.title} (@okstra/convergence) [regression] @devonshin`,
          url: 'https://github.com/devonshin/okstra/issues/12',
          body: `intro (see @okstra/convergence)\n<!-- okstra-fingerprint: ${internal.id} -->`,
          comments: [],
        },
      ],
    });
    expect(t.plan().code).toBe(0);
    expect(t.readPlan().candidates.find((c: { id: string }) => c.id === internal.id)).toMatchObject({ decision: 'comment', match: { number: 12 } });
  });
});

describe('error-issue submit', () => {
  it('sends only approved candidates, records URLs, and a second run sends nothing twice', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const [a, b] = t.readPlan().candidates;
    const first = t.submit('--approve', a.id);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).sent).toEqual([{ id: a.id, action: 'create', url: 'https://github.com/devonshin/okstra/issues/101' }]);
    const create = t.gh.calls().find((c) => c.argv[1] === 'create')!;
    expect(create.argv).toEqual(['issue', 'create', '--repo', 'devonshin/okstra', '--title', a.title, '--body-file', '-']);
    expect(create.stdin).toBe(a.body);
    const after = t.readPlan().candidates;
    expect(after.find((c: { id: string }) => c.id === a.id).submitted).toEqual({ action: 'create', url: 'https://github.com/devonshin/okstra/issues/101' });
    expect(after.find((c: { id: string }) => c.id === b.id).submitted).toBeNull();
    const second = t.submit('--approve', 'all');
    expect(JSON.parse(second.stdout).sent.map((s: { id: string }) => s.id)).toEqual(
      after.filter((c: { id: string }) => c.id !== a.id).map((c: { id: string }) => c.id),
    );
    const third = t.submit('--approve', 'all');
    expect(JSON.parse(third.stdout).sent).toEqual([]);
    expect(t.gh.calls().filter((c) => c.argv[1] === 'create')).toHaveLength(3);
  });

  it('no --approve, an unknown id, a tampered body: exit 2 and nothing sent', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const planBytes = readFileSync(t.planFile, 'utf8');
    const none = t.submit();
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--approve <ids\|all> is required: nothing was sent/);
    const unknown = t.submit('--approve', 'ffffffffffff');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown candidate id\(s\) ffffffffffff: nothing was sent/);
    const plan = JSON.parse(planBytes);
    plan.candidates[1].body += '\nreach me at someone@example.org';
    writeFileSync(t.planFile, JSON.stringify(plan));
    const refused = t.submit('--approve', 'all');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`last gate refused candidate ${plan.candidates[1].id} \\(body: email`));
    expect(t.gh.calls().filter((c) => c.argv[0] === 'issue' && c.argv[1] !== 'list')).toEqual([]);
  });

  it('issue 30: values planted in the title or body after the plan was written are refused by class (exit 2), never echoed; the stub gh sends nothing', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const planBytes = readFileSync(t.planFile, 'utf8');
    const plants: Array<[string, string, string]> = [
      ['body', ' on buildbox99', 'unknown-host'],
      ['body', ' PGPASSWORD=pw7', 'secret-kv'],
      ['title', ' 山田', 'name-any-script'],
      ['body', ' MD5:43:51:43:a1:b5:fc:8b:b7:0a:3a:a9:b1:0f:66:73:a8', 'fingerprint'],
      ['title', ' by Ilsa Varnholt', 'unknown-word'],
      ['body', ' key comment quorra@host-3', 'user-at-host'],
    ];
    for (const [field, planted, cls] of plants) {
      const plan = JSON.parse(planBytes);
      plan.candidates[0][field] += planted;
      writeFileSync(t.planFile, JSON.stringify(plan));
      const r = t.submit('--approve', 'all');
      expect(r.code, planted).toBe(2);
      expect(r.stderr, planted).toMatch(new RegExp(`last gate refused candidate ${plan.candidates[0].id} \\(${field}: [^)]*${cls}`));
      for (const part of planted
        .trim()
        .split(/[\s=@]+/)
        .filter((x) => x.length > 3 && !['comment', 'PGPASSWORD'].includes(x)))
        expect(r.stderr, planted).not.toContain(part);
    }
    expect(t.gh.calls().filter((c) => c.argv[0] === 'issue' && c.argv[1] !== 'list')).toEqual([]);
  });

  it('--approve naming no id (",,,") is exit 2 like a missing --approve; nothing sent', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    for (const approve of [',,,', ' , ']) {
      const r = t.submit('--approve', approve);
      expect(r.code, approve).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/--approve <ids\|all> names no candidate id/);
    }
    expect(t.gh.calls().filter((c) => c.argv[1] === 'create' || c.argv[1] === 'comment')).toEqual([]);
  });

  it('a plan file with duplicate candidate ids is refused (exit 2 naming the field); nothing filed', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const plan = t.readPlan();
    const a = plan.candidates[0];
    plan.candidates.push({ ...a });
    writeFileSync(t.planFile, JSON.stringify(plan));
    const r = t.submit('--approve', a.id);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/candidates\[3\]\.id: duplicate candidate id/);
    expect(t.gh.calls().filter((c) => c.argv[1] === 'create' || c.argv[1] === 'comment')).toEqual([]);
  });

  it('a plan file whose repo is not <owner>/<name> is refused (exit 2 naming repo); nothing sent', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    for (const repo of ['--upload-pack=x/y', 'owner/..', 'a/b..c']) {
      const plan = t.readPlan();
      plan.repo = repo;
      writeFileSync(t.planFile, JSON.stringify(plan));
      const r = t.submit('--approve', 'all');
      expect(r.code, repo).toBe(2);
      expect(r.stderr, repo).toMatch(/: repo: /);
    }
    expect(t.gh.calls().filter((c) => c.argv[1] === 'create' || c.argv[1] === 'comment')).toEqual([]);
  });

  it('a user name known only at submit time (USER) is refused by the last gate', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    const plan = t.readPlan();
    plan.candidates[0].title += ' seen by mallory-x';
    writeFileSync(t.planFile, JSON.stringify(plan));
    const r = runBin(['error-issue', 'submit', '--plan', t.planFile, '--approve', plan.candidates[0].id], { env: { ...t.env, USER: 'mallory-x' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(title: identity)');
  });

  it('a failed send stops, keeps what was sent, exit 2', () => {
    const t = setup();
    expect(t.plan().code).toBe(0);
    t.gh.setScenario({ failSend: true });
    const r = t.submit('--approve', 'all');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/gh issue create exited 1: HTTP 502/);
    expect(t.readPlan().candidates.every((c: { submitted: unknown }) => c.submitted === null)).toBe(true);
  });

  it('bodies over 65,536 characters are truncated with a visible marker', () => {
    const project = makePlantedProject({ hugeDetail: true });
    const home = makeHome();
    onCleanup(
      () => project.cleanup(),
      () => rmSync(home, { recursive: true, force: true }),
    );
    const planFile = join(home, 'plan.json');
    expect(runBin(['error-issue', 'plan', '--project-root', project.root, '--output', planFile], { env: { HOME: home, PATH: home } }).code).toBe(0);
    const bodies = JSON.parse(readFileSync(planFile, 'utf8')).candidates.map((c: { body: string }) => c.body);
    const long = bodies.find((b: string) => b.includes('truncated by okstra'));
    expect(long.length).toBe(65_536);
    expect(long).toMatch(/\n\n---\n\*\*\[truncated by okstra: \d+ characters omitted\]\*\*\n$/);
    expect(long.startsWith('<!-- okstra-fingerprint: ')).toBe(true);
  });
});
