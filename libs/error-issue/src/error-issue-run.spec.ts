import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorIssuePlan } from '@okstra/schemas/error-issue';
import { INVARIANTS } from '@okstra/audit-rules';
import { makeCleanProject, TASK_ROOT_REL, type Project } from '@okstra/audit-rules/test-support';
import { clusterRecords, DEFAULT_GATE } from './cluster.js';
import type { GhRunner } from './gh.js';
import { harvestIdentities, IdentitySet, remoteIdentities } from './identities.js';
import { lastGate } from './last-gate.js';
import { machineIdentities, type MachineFacts } from './machine.js';
import { anonymize, normalizeMessage } from './normalize.js';
import { readProjectInputs } from './inputs.js';
import { draftCandidates } from './plan.js';
import { buildErrorIssuePlan, keepSubmitted, mergeGate, writePlanFile } from './plan-run.js';
import { TITLE_MAX } from './render.js';
import type { RawRecord } from './signals.js';
import { parseApproval, submitApproved } from './submit-run.js';

const facts = (over: Partial<MachineFacts> = {}): MachineFacts => ({
  env: { USER: 'alice', HOME: '/home/alice', HOSTNAME: 'buildbox07' },
  hostnames: ['buildbox07.lab.acme-corp.internal'],
  account: { username: 'alice', homedir: '/home/alice', uid: 1000 },
  passwd: 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice Smith,Room 4,,:/home/alice:/bin/bash\n',
  gitConfigs: ['[core]\n\tname = not-this\n[user]\n\tname = "Alice B. Smith"\n\temail = alice@smith.example.org\n'],
  ...over,
});

describe('identities from every source the machine offers', () => {
  it('user names and ~user, passwd and git full names word by word, emails, every host name form', () => {
    const ids = machineIdentities(facts(), new IdentitySet())
      .list()
      .map((x) => x.toLowerCase());
    for (const id of [
      'alice',
      '~alice',
      '/home/alice',
      'Alice Smith',
      'Smith',
      'Alice B. Smith',
      'alice@smith.example.org',
      'buildbox07',
      'buildbox07.lab.acme-corp.internal',
      'lab',
      'acme-corp',
    ])
      expect(ids, id).toContain(id.toLowerCase());
    expect(ids).not.toContain('not-this');
  });

  it('generic accounts (root, git) are not identities, so "project root" stays a phrase', () => {
    const ids = machineIdentities(
      facts({ env: { USER: 'root', HOME: '/root' }, account: { username: 'root', homedir: '/root', uid: 0 }, gitConfigs: [] }),
      new IdentitySet(),
    );
    expect(ids.list()).not.toContain('root');
    expect(anonymize('the project root is missing', ids)).toBe('the project root is missing');
  });

  it('the issue-15 leaks are redacted whole: ~alice, ~alice/proj, a bare host name, a full name and its surname', () => {
    const ids = machineIdentities(facts({ env: { USER: 'zed', HOSTNAME: 'buildbox07' }, account: null, passwd: '' }), new IdentitySet());
    harvestIdentities('lock owned by ~alice in ~alice/proj', ids);
    const out = anonymize('lock owned by ~alice (~alice/proj/x.json) on buildbox07 by Alice B. Smith; Smith again; alice too', ids);
    expect(out).toBe('lock owned by <path> (<path>) on <host> by <name>; <name> again; <name> too');
  });

  it('over-redaction: a word inside an identity stays where it stands alone; an identity that is the word is redacted', () => {
    const ids = remoteIdentities('git@github.com:acme/secret-payments.git', new IdentitySet());
    harvestIdentities('pushed to git@github.com:acme/secret-payments.git', ids);
    expect(ids.list()).not.toContain('git');
    expect(ids.list()).not.toContain('secret');
    expect(anonymize('git push failed: secret store', ids)).toBe('git push failed: secret store');
    expect(anonymize('git push to secret-payments failed', ids)).toBe('git push to <name> failed');
    // an identity that is a common word is redacted only where it is used as a name (issue 30)
    ids.add('secret');
    expect(anonymize('git push failed: secret store', ids)).toBe('git push failed: secret store');
    expect(anonymize('lock held for secret', ids)).toBe('lock held for <name>');
  });
});

const rec = (over: Partial<RawRecord>): RawRecord => ({
  origin: 'run-audit',
  projectIndex: 0,
  projectRoot: '/p',
  runKey: 'r1',
  source: 'run-audit',
  kind: '',
  message: 'x',
  detail: '',
  exitCode: null,
  taskType: 'error-analysis',
  ...over,
});

describe('every invariant class is fileable (okstra catalogue text is not identity)', () => {
  it('each class yields a candidate whose whole title fits', () => {
    const ids = new IdentitySet().add('worker', 'report', 'refund-timeout', 'payments');
    const records = INVARIANTS.flatMap((inv) =>
      ['r1', 'r2'].map((runKey) => rec({ kind: inv.id, runKey, message: `worker 'codex' of .okstra/tasks/payments/refund-timeout broke ${inv.id}` })),
    );
    const { drafts, dropped } = draftCandidates(clusterRecords(records, ids), DEFAULT_GATE, ids);
    expect(dropped).toEqual([]);
    expect(drafts.map((d) => d.title).sort()).toEqual(INVARIANTS.map((inv) => `[okstra-defect] run-audit ${inv.id}: ${inv.summary}`).sort());
    for (const d of drafts) expect(d.title.length, d.title).toBeLessThanOrEqual(TITLE_MAX);
  });

  it('the catalogue text is blanked only where it occurs whole: a target path beside it is still refused', () => {
    const title = `[okstra-defect] run-audit worker-not-terminal: ${INVARIANTS[2].summary}`;
    expect(lastGate({ title }, new IdentitySet())).toEqual([]);
    expect(lastGate({ title: `${title} src/refund.ts` }, new IdentitySet())).toEqual([{ field: 'title', detector: 'relative-path' }]);
    expect(lastGate({ title: 'a worker row is still pending/in-progress' }, new IdentitySet())).toEqual([{ field: 'title', detector: 'relative-path' }]);
  });
});

/** An in-memory gh: records every call; `createDelayMs` makes GitHub slow. */
function fakeGh(options: { ok?: boolean; issues?: unknown[]; createDelayMs?: number } = {}) {
  const calls: string[] = [];
  let n = 100;
  const gh: GhRunner = {
    status: async () => (
      calls.push('status'),
      options.ok === false ? { ok: false, reason: 'gh is not authenticated', hint: 'run gh auth login' } : { ok: true }
    ),
    searchIssues: async (_repo, fp) => (calls.push(`search ${fp}`), (options.issues ?? []) as never),
    createIssue: async (repo, title) => {
      calls.push(`create ${title}`);
      await new Promise((r) => setTimeout(r, options.createDelayMs ?? 0));
      return `https://github.com/${repo}/issues/${++n}`;
    },
    comment: async (repo, number) => (calls.push(`comment ${number}`), `https://github.com/${repo}/issues/${number}#c`),
  };
  return { gh, calls };
}

describe('plan and submit as functions (injected gh)', () => {
  let project: Project;
  let dir: string;
  afterEach(() => {
    project?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const setup = () => {
    project = makeCleanProject();
    project.remove(`.okstra/tasks/payments/refund-timeout/runs/error-analysis/worker-results/codex-error-analysis-001.md`);
    project.remove(`.okstra/tasks/payments/refund-timeout/runs/implementation/carry/stage-1.json`);
    dir = mkdtempSync(join(tmpdir(), 'okstra-plan-'));
  };
  const gate = { minRuns: 1, minRecords: 1 };

  it('no candidate: matching is not-needed and gh is never asked (nothing says submit will refuse)', async () => {
    setup();
    const { gh, calls } = fakeGh({ ok: false });
    const { plan, warnings } = await buildErrorIssuePlan({
      roots: [project.root],
      repo: 'devonshin/okstra',
      gate: mergeGate({ minRuns: 5 }),
      machine: facts(),
      gh,
    });
    expect(plan.candidates).toEqual([]);
    expect(plan.matching).toEqual({ status: 'not-needed', reason: 'no candidates to match' });
    expect(warnings).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('unchecked matching is said once, with its hint', async () => {
    setup();
    const { gh } = fakeGh({ ok: false });
    const { plan, warnings } = await buildErrorIssuePlan({ roots: [project.root], repo: 'devonshin/okstra', gate, machine: facts(), gh });
    expect(plan.matching).toEqual({ status: 'unchecked', reason: 'gh is not authenticated' });
    expect(warnings).toEqual(['matching unchecked: gh is not authenticated (run gh auth login)']);
  });

  it('a candidate the last gate drops is named with its cluster and detector', async () => {
    setup();
    const { gh } = fakeGh();
    // a user named like an okstra compound of the body template (a signal name) cannot be told from it: fail closed
    const { warnings } = await buildErrorIssuePlan({
      roots: [project.root],
      repo: 'devonshin/okstra',
      gate,
      machine: facts({ env: { USER: 'okstra-invariant' }, account: null }),
      gh,
    });
    expect(
      warnings.some((w) =>
        /^candidate [0-9a-f]{12} \(run-audit stage-carry-missing\) dropped: the last gate refused body: identity, commentBody: identity$/.test(w),
      ),
    ).toBe(true);
  });

  it('re-planning keeps submitted; concurrent submits of X,Y with a slow gh create each issue once', async () => {
    setup();
    const { gh, calls } = fakeGh({ createDelayMs: 150 });
    const planPath = join(dir, 'plan.json');
    const { plan } = await buildErrorIssuePlan({ roots: [project.root], repo: 'devonshin/okstra', gate, machine: facts(), gh });
    expect(plan.candidates.length).toBeGreaterThanOrEqual(2);
    await writePlanFile(planPath, plan);
    const ids = plan.candidates.slice(0, 2).map((c) => c.id);
    const req = { planPath, approve: ids, gh, machine: facts() };
    const [a, b] = await Promise.all([submitApproved(req), submitApproved(req)]);
    expect(calls.filter((c) => c.startsWith('create '))).toHaveLength(2);
    expect([...a.sent, ...b.sent].map((s) => s.id).sort()).toEqual([...ids].sort());
    expect([...a.skipped, ...b.skipped].map((s) => s.reason.replace(/\d+$/, 'N'))).toEqual([
      'already submitted: https://github.com/devonshin/okstra/issues/N',
      'already submitted: https://github.com/devonshin/okstra/issues/N',
    ]);
    // plan again: the listing lags (no issue found), but what was sent is kept
    const again = await buildErrorIssuePlan({ roots: [project.root], repo: 'devonshin/okstra', gate, machine: facts(), gh });
    const written = await writePlanFile(planPath, again.plan);
    expect(
      written.candidates
        .filter((c) => c.submitted)
        .map((c) => c.id)
        .sort(),
    ).toEqual([...ids].sort());
    const onDisk = JSON.parse(readFileSync(planPath, 'utf8')) as ErrorIssuePlan;
    expect(onDisk.candidates.filter((c) => c.submitted).length).toBe(2);
    const third = await submitApproved({ ...req, approve: 'all' });
    expect(third.sent.map((s) => s.id)).not.toContain(ids[0]);
  });

  it('keepSubmitted ignores a plan for another repository', () => {
    const base = {
      schemaVersion: '1.0',
      repo: 'a/b',
      gate: DEFAULT_GATE,
      matching: { status: 'checked', reason: null },
      identityDigests: [],
      clusters: [],
    } as const;
    const c = { id: 'abcdef012345', submitted: null } as never;
    const prev = { ...base, repo: 'x/y', candidates: [{ id: 'abcdef012345', submitted: { action: 'create', url: 'u' } }] } as never;
    expect(keepSubmitted({ ...base, inputs: {}, candidates: [c] } as never, prev).candidates[0]).toEqual(c);
  });

  it('--approve parsing: all, ids, and refusals', () => {
    expect(parseApproval('all')).toBe('all');
    expect(parseApproval(' a, b,,a ')).toEqual(['a', 'b']);
    expect(() => parseApproval(undefined)).toThrow(/is required/);
    expect(() => parseApproval(',,,')).toThrow(/names no candidate id/);
  });

  it('a tampered plan text is refused before anything is sent', async () => {
    setup();
    const { gh, calls } = fakeGh();
    const planPath = join(dir, 'plan.json');
    const { plan } = await buildErrorIssuePlan({ roots: [project.root], repo: 'devonshin/okstra', gate, machine: facts(), gh });
    plan.candidates[1]!.body += '\nsee /home/alice/notes';
    writeFileSync(planPath, JSON.stringify(plan));
    await expect(submitApproved({ planPath, approve: 'all', gh, machine: facts() })).rejects.toThrow(/last gate refused candidate .*body: posix-path/);
    expect(calls.filter((c) => c.startsWith('create'))).toEqual([]);
  });
});

describe('normalization keeps the ~ spelling out of target paths', () => {
  it('~user/… is a home path, ~5 s is not', () => {
    expect(normalizeMessage('waited ~5 s for ~bob/x.json', new IdentitySet())).toBe('waited ~<n> s for <path>');
  });
});

describe('errors-log lines follow the one JSON text rule (libs/state-file parseJsonText)', () => {
  it('a record naming a key twice is skipped with the key and its path, never read as its last value', async () => {
    const p = makeCleanProject();
    try {
      p.write(
        `${TASK_ROOT_REL}/errors-okstra.jsonl`,
        [
          '{"source":"okstra-team","kind":"E_LOCK","message":"lock held"}',
          '{"source":"okstra-team","kind":"E_LOCK","message":"lock held","exitCode":2,"exitCode":0}',
          '{"source":"okstra-team",',
        ].join('\n') + '\n',
      );
      const inputs = await readProjectInputs(p.root, 0, new IdentitySet());
      expect(inputs.records.filter((r) => r.origin === 'errors-log').map((r) => [r.message, r.exitCode])).toEqual([['lock held', null]]);
      expect(inputs.skipped.map((s) => [s.line, s.reason])).toEqual([
        [2, 'exitCode: holds the key "exitCode" twice in one object (both on line 1); refusing to guess which one counts'],
        [3, 'not valid JSON'],
      ]);
    } finally {
      p.cleanup();
    }
  });
});
