import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject } from '@okstra/audit-rules/test-support';
import { DEFAULT_GATE } from './cluster.js';
import type { GhRunner } from './gh.js';
import type { MachineFacts } from './machine.js';
import { IdentitySet } from './identities.js';
import { anonymize } from './normalize.js';
import { buildErrorIssuePlan, writePlanFile } from './plan-run.js';
import { submitApproved } from './submit-run.js';
import { identityCorpus, IDENTITY_CLASSES, overRedactionCorpus, type CorpusCase } from './test-support/identity-corpus.js';

// docs/error-issue.md "Corpus": every generated identity is planted in a
// project's errors log, planned and submitted through a recording gh; nothing
// of it may reach the plan file, gh's argv or its stdin. Common words that are
// identities of the machine must survive where they are not used as names.

const base = (over: Partial<MachineFacts>): MachineFacts => ({
  env: { HOME: '/home/corpus', USER: 'corpus', ...(over.env ?? {}) },
  hostnames: over.hostnames ?? ['ci-box'],
  account: null,
  passwd: '',
  gitConfigs: over.gitConfigs ?? [],
});

/** A GhRunner that records what would be sent (the argv `gh` would get and the body on its stdin). */
function recordingGh(): { gh: GhRunner; sent: string[] } {
  const sent: string[] = [];
  let n = 0;
  const gh: GhRunner = {
    status: async () => ({ ok: true }),
    searchIssues: async (repo, fp) => (sent.push(`issue list --repo ${repo} --search ${fp} in:body`), []),
    createIssue: async (repo, title, body) => (
      sent.push(`issue create --repo ${repo} --title ${title} --body-file -`, body),
      `https://github.com/${repo}/issues/${++n}`
    ),
    comment: async (repo, number, body) => (
      sent.push(`issue comment ${number} --repo ${repo} --body-file -`, body),
      `https://github.com/${repo}/issues/${number}`
    ),
  };
  return { gh, sent };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Plan and submit one project through a recording gh: the outbound texts and the plan's candidate titles. */
async function planAndSubmit(write: (p: ReturnType<typeof makeProject>) => void, machine: MachineFacts) {
  const project = makeProject('okstra-corpus-');
  dirs.push(project.root);
  write(project);
  const { gh, sent } = recordingGh();
  const { plan } = await buildErrorIssuePlan({ roots: [project.root], repo: 'devonshin/okstra', gate: DEFAULT_GATE, machine, gh });
  const planPath = join(mkdtempSync(join(tmpdir(), 'okstra-corpus-plan-')), 'plan.json');
  dirs.push(join(planPath, '..'));
  await writePlanFile(planPath, plan);
  await submitApproved({ planPath, approve: 'all', gh, machine });
  return { outbound: [JSON.stringify({ ...plan, identityDigests: [] }), ...sent].join('\n'), titles: plan.candidates.map((c) => c.title) };
}

const record = (c: CorpusCase, seq: string) =>
  JSON.stringify({ source: 'okstra-team', kind: 'E_CORPUS', exitCode: 70, taskType: 'error-analysis', seq, ...c.record });

function leaksOf(c: CorpusCase, outbound: string): string[] {
  const text = outbound.toLowerCase();
  return c.forbidden.filter((f) => [f, f.normalize('NFC'), f.normalize('NFD')].some((x) => text.includes(x.toLowerCase())));
}

describe('identity corpus: classes × places, planned and submitted through a recording gh', () => {
  const corpus = identityCorpus();

  it('is at least 60 identities across at least 20 classes in every place', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    expect(new Set(corpus.map((c) => c.identityClass)).size).toBe(IDENTITY_CLASSES.length);
    expect(IDENTITY_CLASSES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(corpus.map((c) => c.place))).toEqual(new Set(['message', 'stack-frame', 'env-dump', 'remote', 'task-id']));
  });

  it('0 leaks into the plan file, gh argv or stdin; every case is filed', async () => {
    const leaked: string[] = [];
    let filed = 0;
    for (const c of corpus) {
      const { outbound, titles } = await planAndSubmit(
        (p) => p.write(`.okstra/tasks/${c.task.group}/${c.task.id}/errors-2026-11-28.jsonl`, `${record(c, '001')}\n${record(c, '002')}\n`),
        base(c.machine),
      );
      if (titles.length > 0) filed++;
      for (const f of leaksOf(c, outbound)) leaked.push(`${c.id}: ${f.length > 8 ? f.slice(0, 4) + '…' : '…'}`);
    }
    const classes = new Set(corpus.map((c) => c.identityClass)).size;
    console.log(`error-issue corpus: {"identities":${corpus.length},"classes":${classes},"filed":${filed},"leaks":${leaked.length}} ${leaked.join(' | ')}`);
    expect(leaked).toEqual([]);
    expect(filed).toBe(corpus.length);
  }, 120_000);

  it('0 over-redactions: a common word that is an identity survives where it is not a name', async () => {
    const over: string[] = [];
    const cases = overRedactionCorpus();
    for (const c of cases) {
      const { titles } = await planAndSubmit((p) => {
        if (c.remotes.length) p.write('.git/config', c.remotes.map((u, i) => `[remote "r${i}"]\n\turl = ${u}\n`).join(''));
        const line = (seq: string) =>
          JSON.stringify({ source: 'okstra-team', kind: 'E_CORPUS', exitCode: 70, taskType: 'error-analysis', seq, message: c.message });
        p.write('.okstra/tasks/payments/refund-timeout/errors-2026-11-28.jsonl', `${line('001')}\n${line('002')}\n`);
      }, base(c.machine));
      const count = (t: string) => t.match(new RegExp(`(?<![\\p{L}\\p{N}])${c.word}(?![\\p{L}\\p{N}])`, 'giu'))?.length ?? 0;
      const title = titles.find((t) => t.includes('E_CORPUS')) ?? '';
      if (count(title) !== count(c.message)) over.push(`${c.id}: ${title}`);
    }
    console.log(`error-issue over-redaction: {"cases":${cases.length},"overRedactions":${over.length}} ${over.join(' | ')}`);
    expect(over).toEqual([]);
  }, 120_000);

  it('plain log lines with no identity in them come out as written', () => {
    const lines = [
      "internal error (this is a bug, please report it): Cannot read properties of undefined (reading 'verdict')",
      'team dispatch: spawn tmux ENOENT',
      'npm ERR! code ERR_INVALID_ARG_TYPE',
      'worker codex timed out after 30 minutes',
      'team dispatch: pane 3 died before the worker started',
      'git push failed: Permission denied (publickey).',
      "TypeError: Cannot destructure property 'status' of undefined",
      'EACCES: permission denied, open',
      'convergence round 2: 3 findings still disputed, 1 unverifiable',
      'okstra-worker-liveness: worker claude stalled (no heartbeat for 12 minutes)',
      'SyntaxError: Unexpected token } in JSON at position 42',
      'Error: ENOSPC: no space left on device, write',
      'fetch failed: getaddrinfo EAI_AGAIN',
      'process exited with code 137 (SIGKILL) while collecting results',
    ];
    const changed = lines.filter((l) => anonymize(l, new IdentitySet()) !== l).map((l) => `${l} → ${anonymize(l, new IdentitySet())}`);
    expect(changed).toEqual([]);
  });
});
