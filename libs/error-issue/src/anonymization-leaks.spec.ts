import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject } from '@okstra/audit-rules/test-support';
import { DEFAULT_GATE } from './cluster.js';
import type { GhRunner } from './gh.js';
import { harvestIdentities, IdentitySet } from './identities.js';
import { ghSendProblems } from './last-gate.js';
import { machineIdentities, type MachineFacts } from './machine.js';
import { normalizeMessage } from './normalize.js';
import { buildErrorIssuePlan, writePlanFile } from './plan-run.js';
import { submitApproved } from './submit-run.js';

// Leaks and over-redactions of the anonymizer, each written as it was reported (issue 30; these failed before its fix).

const facts = (env: Record<string, string> = {}): MachineFacts => ({
  env: { HOME: '/home/corpus', ...env },
  hostnames: [],
  account: null,
  passwd: '',
  gitConfigs: [],
});

/** What plan does with one record's text: harvest what it reveals, then normalize. */
function planned(text: string, machine = facts()): string {
  const ids = harvestIdentities(text, machineIdentities(machine, new IdentitySet()));
  return normalizeMessage(text, ids);
}

describe('leaks: identities the anonymizer must catch', () => {
  it('a host name that appears only inside a message (… on buildbox07)', () => {
    expect(planned('okstra-team lock held on buildbox07 for the run')).toBe('okstra-team lock held on <host> for the run');
  });

  it("a person's surname after a known first name (Alice Smith → <name> Smith)", () => {
    const out = planned('worker result committed by Alice Smith', facts({ USER: 'alice' }));
    expect(out).toBe('worker result committed by <name> <name>');
  });

  it('an MD5 ssh fingerprint: no pair survives, with or without a letter', () => {
    const out = planned('host key fingerprint is MD5:43:51:43:a1:b5:fc:8b:b7:0a:3a:a9:b1:0f:66:73:a8');
    expect(out).toBe('host key fingerprint is <secret>');
  });

  it('an ssh key comment user@host-3', () => {
    const out = planned('offered key ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host-3');
    expect(out).toBe('offered key <secret> <name>@<host>');
  });

  it('a short secret in an env dump (PGPASSWORD=…)', () => {
    expect(planned('env: PGPASSWORD=pw7 LANG=C')).toBe('env: PGPASSWORD=<secret> LANG=C');
  });

  it('a non-ASCII user name written alone (山田), beside C:\\Users\\山田 in the same record', () => {
    expect(planned('cannot open C:\\Users\\山田\\app.log: 山田 has no access')).toBe('cannot open <path>: <name> has no access');
  });
});

describe('over-redactions: words the anonymizer must keep', () => {
  it('USER=dev: the word dev stays where it is not a name', () => {
    expect(planned('dev server failed to start in dev mode', facts({ USER: 'dev' }))).toBe('dev server failed to start in dev mode');
    expect(planned('lock held for dev', facts({ USER: 'dev' }))).toBe('lock held for <name>');
  });

  it('a URL host label git does not make the word git an identity everywhere', () => {
    const text = 'okstra-team git-remote: git push failed for https://dev:pw@git.example.internal/acme/app.git';
    expect(planned(text)).toBe('okstra-team git-remote: git push failed for <url>');
  });
});

describe('the last gate re-checks what submit sends, planted after the plan was written', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const PLANTS: Array<[string, string]> = [
    ['on buildbox07', 'unknown-host'],
    ['PGPASSWORD=pw7', 'secret-kv'],
    ['山田', 'name-any-script'],
    ['MD5:43:51:43:a1:b5:fc:8b:b7:0a:3a:a9:b1:0f:66:73:a8', 'fingerprint'],
    ['user@host-3', 'user-at-host'],
    ['by Zorvek', 'unknown-word'],
  ];

  it.each(PLANTS)('%s in the body: refused naming the candidate and %s, never the value; nothing sent', async (planted, cls) => {
    const project = makeProject('okstra-plant-');
    dirs.push(project.root);
    const line = (seq: string) =>
      JSON.stringify({ source: 'okstra-team', kind: 'E_LOCK', exitCode: 70, seq, taskType: 'error-analysis', message: 'lock held too long' });
    project.write('.okstra/tasks/payments/refund-timeout/errors-2026-11-28.jsonl', `${line('001')}\n${line('002')}\n`);
    const sent: string[] = [];
    const gh: GhRunner = {
      status: async () => ({ ok: true }),
      searchIssues: async () => [],
      createIssue: async (_r, title, body) => (sent.push(title, body), 'https://github.com/o/r/issues/1'),
      comment: async (_r, _n, body) => (sent.push(body), 'https://github.com/o/r/issues/1'),
    };
    const { plan } = await buildErrorIssuePlan({ roots: [project.root], repo: 'devonshin/okstra', gate: DEFAULT_GATE, machine: facts(), gh });
    const dir = mkdtempSync(join(tmpdir(), 'okstra-plant-plan-'));
    dirs.push(dir);
    const planPath = join(dir, 'plan.json');
    await writePlanFile(planPath, plan);
    const id = plan.candidates[0]!.id;
    const edited = JSON.parse(readFileSync(planPath, 'utf8'));
    edited.candidates[0].body = edited.candidates[0].body.replace('lock held too long', `lock held too long ${planted}`);
    writeFileSync(planPath, JSON.stringify(edited, null, 2));
    const error = await submitApproved({ planPath, approve: 'all', gh, machine: facts() }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toContain(`candidate ${id}`);
    expect(error?.message).toContain(`body: ${cls}`);
    expect(error?.message).not.toContain(planted.replace(/^(on|by) /, ''));
    expect(sent).toEqual([]);
  });
});

describe('the send-time gate over the exact gh argv and stdin', () => {
  const ids = new IdentitySet().add('zorvek');
  const create = (title: string) => ['issue', 'create', '--repo', 'devonshin/okstra', '--title', title, '--body-file', '-'];

  it("passes what plan renders and okstra's own argv words", () => {
    expect(ghSendProblems(create('[okstra-defect] okstra-team E_LOCK: lock held by <path> on <host>'), 'lock held by <path>\n', ids)).toEqual([]);
    expect(ghSendProblems(['issue', 'comment', '17', '--repo', 'devonshin/okstra', '--body-file', '-'], 'Seen again: 2 records.\n', ids)).toEqual([]);
  });

  it('refuses a planted title, an unexpected argv word and a planted stdin byte, by class', () => {
    expect(ghSendProblems(create('lock held on buildbox07'), '', ids)).toEqual([{ field: 'title', detector: 'unknown-host' }]);
    expect(ghSendProblems([...create('ok'), '--assignee', 'zorvek'], '', ids)).toEqual([
      { field: 'argv', detector: 'unknown-word' },
      { field: 'argv', detector: 'identity' },
    ]);
    expect(ghSendProblems(create('ok'), 'env PGPASSWORD=pw7', ids)).toEqual([{ field: 'stdin', detector: 'secret-kv' }]);
  });
});
