import { describe, expect, it } from 'vitest';
import { clusterRecords, passesGate, DEFAULT_GATE } from './cluster.js';
import { harvestIdentities, IdentitySet, identityDigest } from './identities.js';
import { lastGate } from './last-gate.js';
import { decide, findMatch } from './match.js';
import { anonymize, fingerprint, normalizeMessage } from './normalize.js';
import { fingerprintMarker, evidenceMarker, GITHUB_BODY_LIMIT, truncateBody } from './render.js';
import { classifyCluster, classifyRecord, recordSignals, type RawRecord } from './signals.js';

const HOMES = ['/home/zorblax/w/a.ts', '/Users/zorblax/w/a.ts', 'C:\\Users\\zorblax\\w\\a.ts', 'file:///home/zorblax/w/a.ts', '%2Fhome%2Fzorblax%2Fw%2Fa.ts'];

describe('identities and anonymization', () => {
  it('harvests the user from home paths in all five spellings, emails, hosts and remotes', () => {
    for (const home of HOMES) expect(harvestIdentities(`at ${home}`, new IdentitySet()).list()).toContain('zorblax');
    const ids = harvestIdentities(
      'mail zq@corp-x.example.com via https://build-7.corp-x.internal:8443/x and git@github.com:zorg/secret-pay.git',
      new IdentitySet(),
    ).list();
    expect(ids).toEqual(
      expect.arrayContaining(['zq@corp-x.example.com', 'corp-x', 'build-7', 'build-7.corp-x.internal', 'zorg', 'secret-pay', 'zorg/secret-pay']),
    );
  });

  it('anonymize removes every planted identity shape', () => {
    const ids = new IdentitySet().add('zorblax', 'secret-pay');
    const raw = `user zorblax ${HOMES.join(' ')} zq@corp.example.com 10.1.2.3 fe80::1 build-7.corp.internal ghp_abcdefghijklmnop0123456789 token sk-ant-abcdefghijklmnop1234 repo zorg/secret-pay secret-pay 0123456789abcdefABCDEF0123456789`;
    // (`user zorblax` is a name used as one: `user` introduces it)
    const out = anonymize(raw, ids);
    for (const bad of ['zorblax', 'corp', '10.1.2.3', 'fe80', 'ghp_', 'sk-ant', 'secret-pay', 'zorg', 'Users', 'home', '%2F', 'file:'])
      expect(out).not.toContain(bad);
    expect(out).toBe('user <name> <path> <path> <path> <path> <path> <email> <ip> <ip> <host> <secret> token <secret> repo <path> <name> <secret>');
  });

  it('normalization makes the same error on two machines one signature', () => {
    const ids = new IdentitySet().add('alice', 'bob');
    const a = normalizeMessage('run 3f9c2a7 at 2026-11-28T10:41:05Z took 1234 ms in /home/alice/x/y.ts:42 id 123e4567-e89b-12d3-a456-426614174000', ids);
    const b = normalizeMessage('run 77aa1bc at 2026-11-29T08:00:00Z took 99 ms in /Users/bob/q/y.ts:7 id 00000000-1111-2222-3333-444444444444', ids);
    expect(a).toBe('run <hash> at <time> took <n> ms in <path>:<n> id <uuid>');
    expect(b).toBe(a);
    expect(fingerprint(a)).toMatch(/^[0-9a-f]{12}$/);
    expect(fingerprint(a)).toBe(fingerprint(b));
  });
});

describe('linear detectors', () => {
  // 200,000 characters: the old lookahead patterns (long-token, hash) and the unanchored
  // email / percent-encoded-path patterns rescanned the run from every position (~85 s for 100k).
  const huge = 'a-'.repeat(100_000);
  const letters = 'Qx'.repeat(100_000);

  it('a 200,000-character token is replaced whole and refused by the gate', () => {
    expect(normalizeMessage(`cannot parse ${huge} at 12`, new IdentitySet())).toBe('cannot parse <secret> at <n>');
    expect(anonymize(`x ${letters} y ${letters}1 z`, new IdentitySet())).toBe('x <secret> y <secret> z');
    expect(lastGate({ body: `see ${huge}` }, new IdentitySet())).toEqual([{ field: 'body', detector: 'long-token' }]);
    expect(lastGate({ title: letters }, new IdentitySet())).toEqual([{ field: 'title', detector: 'long-token' }]);
  });

  it('long-token and hash keep their meaning: a digit and a letter are both required', () => {
    const ids = new IdentitySet();
    // a long run of letters alone is no token — but no word either: the vocabulary step makes it a <name>
    expect(anonymize('k abcdefghijklmnopqrstuvwxyz0 k abcdefghijklmnopqrstuvwxyzab k', ids)).toBe('k <secret> k <name> k');
    expect(anonymize('k 012345678901234567890123456789 k', ids)).toBe('k 012345678901234567890123456789 k');
    expect(normalizeMessage('c deadbeef1 c abcdefab c 1234567 c a1b2c3d4e', ids)).toBe('c <hash> c <name> c <n> c <hash>');
    expect(lastGate({ body: 'id abcdefghijklmnopqrstuvwxyz0' }, ids)).toEqual([{ field: 'body', detector: 'long-token' }]);
    expect(lastGate({ body: 'id abcdefghijklmnopqrstuvwxyzab' }, ids)).toEqual([{ field: 'body', detector: 'unknown-word' }]);
    expect(lastGate({ body: 'id 012345678901234567890123456789' }, ids)).toEqual([]);
  });
});

describe('last gate', () => {
  it('refuses each identity shape, known identities and digested identities; passes clean text', () => {
    const ids = new IdentitySet().add('zorblax');
    expect(lastGate({ title: 'run-audit result-missing: a completed worker has no result file <path> <n>' }, ids)).toEqual([]);
    for (const bad of [
      ...HOMES,
      'a@b.example.com',
      '192.168.0.1',
      'host.corp.internal',
      'ghp_abcdefghijklmnop0123456789',
      'https://x.io',
      'hi zorblax',
      'AKIAABCDEFGHIJKLMNOP',
    ]) {
      expect(lastGate({ body: `text ${bad} end` }, ids).length, bad).toBeGreaterThan(0);
    }
    expect(lastGate({ body: 'project Secret Pay leaked' }, new IdentitySet(), [identityDigest('secret pay')])).toEqual([
      { field: 'body', detector: 'identity' },
    ]);
    expect(lastGate({ body: 'nothing here' }, new IdentitySet(), [identityDigest('secret pay')])).toEqual([]);
  });
});

describe('truncation', () => {
  it('keeps short bodies and cuts long ones to the limit with a visible marker', () => {
    expect(truncateBody('short')).toBe('short');
    const out = truncateBody('x'.repeat(100_000));
    expect(out.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(out).toMatch(/\*\*\[truncated by okstra: \d+ characters omitted\]\*\*\n$/);
    expect(out.length + Number(/(\d+) characters/.exec(out)![1]) - (out.length - out.indexOf('\n\n---\n**[truncated'))).toBe(100_000);
  });
});

describe('matching', () => {
  const fp = 'abcdef012345';
  it('matches only on the exact marker in the body, open first', () => {
    const issues = [
      { number: 1, state: 'OPEN', body: 'mentions abcdef012345 without the marker' },
      { number: 7, state: 'CLOSED', url: 'u7', body: fingerprintMarker(fp) },
      { number: 9, state: 'OPEN', url: 'u9', body: `x\n${fingerprintMarker(fp)}` },
    ];
    expect(findMatch(fp, issues)?.number).toBe(9);
    expect(findMatch(fp, issues.slice(0, 2))?.number).toBe(7);
    expect(findMatch(fp, issues.slice(0, 1))).toBeNull();
  });

  it('decides create / comment / skip', () => {
    expect(decide(null, 'd1').decision).toBe('create');
    expect(decide({ number: 7, state: 'CLOSED', body: '' }, 'd1')).toMatchObject({ decision: 'create', match: { number: 7, state: 'closed' } });
    expect(decide({ number: 9, state: 'OPEN', body: '', comments: [] }, 'd1')).toMatchObject({ decision: 'comment', match: { number: 9 } });
    expect(decide({ number: 9, state: 'OPEN', body: '', comments: [{ body: evidenceMarker('d1') }] }, 'd1').decision).toBe('skip');
  });
});

const rec = (over: Partial<RawRecord>): RawRecord => ({
  origin: 'errors-log',
  projectIndex: 0,
  projectRoot: '/p',
  runKey: 'r1',
  source: 'okstra-team',
  kind: '',
  message: 'x',
  detail: '',
  exitCode: null,
  taskType: null,
  ...over,
});

describe('signals and classification (pre-anonymization)', () => {
  it('classifies records', () => {
    expect(classifyRecord(recordSignals(rec({ exitCode: 70, message: 'EACCES' })))).toBe('okstra-defect');
    expect(classifyRecord(recordSignals(rec({ origin: 'run-audit' })))).toBe('okstra-defect');
    expect(classifyRecord(recordSignals(rec({ message: 'spawn tmux ENOENT' })))).toBe('environment-policy');
    expect(classifyRecord(recordSignals(rec({ message: 'gh: HTTP 401 unauthorized' })))).toBe('environment-policy');
    expect(classifyRecord(recordSignals(rec({ message: 'AssertionError: expected 1' })))).toBe('target-code');
    expect(recordSignals(rec({ message: 'cannot parse /p/src/refund.ts' }))).toEqual(['target-path']);
    expect(recordSignals(rec({ message: 'cannot parse /p/.okstra/tasks/x.json and /elsewhere/a.ts' }))).toEqual([]);
    expect(classifyRecord([])).toBe('okstra-defect');
  });

  it('a cluster takes the majority; ties go to environment-policy, then target-code', () => {
    expect(classifyCluster(['okstra-defect', 'okstra-defect', 'target-code'])).toBe('okstra-defect');
    expect(classifyCluster(['okstra-defect', 'environment-policy'])).toBe('environment-policy');
    expect(classifyCluster(['okstra-defect', 'target-code'])).toBe('target-code');
  });

  it('clusters by normalized signature and gates on runs and records', () => {
    const ids = new IdentitySet();
    const clusters = clusterRecords(
      [
        rec({ runKey: 'r1', message: 'timeout after 30 s' }),
        rec({ runKey: 'r2', message: 'timeout after 45 s' }),
        rec({ runKey: 'r2', message: 'other' }),
        rec({ origin: 'run-audit', kind: 'report-missing', runKey: 'r3', message: 'a' }),
        rec({ origin: 'run-audit', kind: 'report-missing', runKey: 'r3', message: 'b' }),
      ],
      ids,
    );
    const bySummary = Object.fromEntries(clusters.map((c) => [c.summary, c]));
    expect(Object.keys(bySummary).sort()).toEqual(['a completed run has no final report (.md or .data.json)', 'other', 'timeout after <n> s']);
    expect(passesGate(bySummary['timeout after <n> s']!, DEFAULT_GATE)).toBe(true);
    expect(passesGate(bySummary['other']!, DEFAULT_GATE)).toBe(false);
    expect(
      passesGate(
        clusters.find((c) => c.origin === 'run-audit')!,
        DEFAULT_GATE,
      ),
    ).toBe(false); // 2 records, 1 run
  });
});

describe('target-path ignores home paths in every spelling outside the root', () => {
  it('no target-path for paths outside the project root', () => {
    for (const home of HOMES) expect(recordSignals(rec({ message: `read ${home}/src/x.ts` })), home).toEqual([]);
  });
});

describe('draftCandidates fails closed', () => {
  it('drops a candidate whose rendering the last gate refuses, and keeps gate-clean ones', async () => {
    const { draftCandidates } = await import('./plan.js');
    const ids = new IdentitySet();
    const clusters = clusterRecords(
      [
        rec({ runKey: 'r1', message: 'worker crashed' }),
        rec({ runKey: 'r2', message: 'worker crashed' }),
        rec({ runKey: 'r1', source: 'okstra-team', kind: 'E', message: 'lost pane-worker' }),
        rec({ runKey: 'r2', source: 'okstra-team', kind: 'E', message: 'lost pane-worker' }),
      ],
      ids,
    );
    ids.add('pane-worker'); // an identity learnt after normalization: the rendered text now carries it
    const { drafts, dropped, summaries } = draftCandidates(clusters, DEFAULT_GATE, ids);
    expect(dropped.map((d) => [d.source, d.kind, d.problems])).toEqual([
      [
        'okstra-team',
        'E',
        [
          { field: 'title', detector: 'identity' },
          { field: 'body', detector: 'identity' },
        ],
      ],
    ]);
    expect(drafts.map((d) => d.title)).toEqual(['[okstra-defect] okstra-team: worker crashed']);
    expect(summaries.map((s) => s.candidate).sort()).toEqual([false, true]);
  });
});

describe('IdentitySet', () => {
  it('keeps identities of 3+ characters, longest first, and forgets public ones', () => {
    const ids = new IdentitySet().add('ab', 'alice', 'alice-corp', ' okstra ', 'devonshin');
    expect(ids.list()).toEqual(['alice-corp', 'devonshin', 'okstra', 'alice']);
    expect(ids.remove('okstra', 'DevonShin').list()).toEqual(['alice-corp', 'alice']);
  });
});
