// `error-issue submit --dry-run` (docs/error-issue.md "submit"): every check, then what would be
// sent where — no gh send, the plan file unchanged. The `--help` example uses it, so it files nothing.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../test-support/bin.js';
import { cleanup, errorIssueSetup } from '../test-support/error-issue-setup.js';

afterEach(cleanup);

/** A planted project whose plan file is made: the dry run's input. */
function setup() {
  const t = errorIssueSetup();
  expect(t.plan().code).toBe(0);
  return t;
}

describe('error-issue submit --dry-run', () => {
  it('lists each send (repo, create + title) and runs no gh send; the plan file is unchanged', () => {
    const t = setup();
    const before = readFileSync(t.planFile, 'utf8');
    const callsBefore = t.gh.calls().length;
    const r = runBin(['error-issue', 'submit', '--plan', t.planFile, '--approve', 'all', '--dry-run'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const candidates = JSON.parse(before).candidates.filter((c: { decision: string }) => c.decision !== 'skip');
    expect(out).toMatchObject({ ok: true, dryRun: true, skipped: [] });
    expect(out.wouldSend).toEqual(
      candidates.map((c: { id: string; title: string }) => ({ id: c.id, action: 'create', repo: 'devonshin/okstra', title: c.title })),
    );
    expect(t.gh.calls().slice(callsBefore)).toEqual([]);
    expect(readFileSync(t.planFile, 'utf8')).toBe(before);
  });

  it('refuses as a real submit does: an unknown id is exit 2, nothing sent', () => {
    const t = setup();
    const r = runBin(['error-issue', 'submit', '--plan', t.planFile, '--approve', 'ffffffffffff', '--dry-run'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown candidate id\(s\) ffffffffffff: nothing was sent/);
  });

  it('--help says what it sends where, marks --approve required and its example is a dry run', () => {
    const r = runBin(['error-issue', 'submit', '--help'], { env: { PATH: '/usr/bin:/bin' } });
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /sends each one's title and anonymized body to GitHub, as a new issue or a comment .* in the plan's repository/,
    );
    expect(r.stdout).toMatch(/--approve <ids\|all> +comma-separated candidate ids, or all\s+\(required\)/);
    expect(r.stdout).toMatch(/Example:\n {2}okstra error-issue submit .* --dry-run\n/);
  });
});
