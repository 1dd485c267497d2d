// A project whose error logs carry planted identities in every field and
// spelling, plus two runs that break the same invariant (docs/error-issue.md tests).
import { makeCleanProject, TASK_ROOT_REL, EA, type Project } from '@okstra/audit-rules/test-support';

/** The identities planted in every record; none may reach a title, body, or gh argv/stdin. */
export const PLANTED = {
  user: 'zorblax',
  email: 'zorblax.quint@zorblax-corp.example.com',
  homes: [
    '/home/zorblax/src/secret-pay',
    '/Users/zorblax/src/secret-pay',
    'C:\\Users\\zorblax\\src\\secret-pay',
    'file:///home/zorblax/src/secret-pay',
    '%2Fhome%2Fzorblax%2Fsrc%2Fsecret-pay',
  ],
  host: 'build-7.zorblax-corp.internal',
  repo: 'zorblax-org/secret-pay',
  token: 'ghp_PLANTEDtoken0123456789abcdefABCDEF0123',
  projectName: 'Quintessa Ledger',
  /** `~user` home spellings of another user of the machine (issue 15: `~alice`, `~alice/proj` leaked). */
  tildeHomes: ['~vexilla', '~vexilla/proj'],
  /** The machine's bare host name, known only from the environment (`HOSTNAME`). */
  bareHost: 'buildbox07',
  /** The user's full name and email, known only from `~/.gitconfig`. */
  fullName: 'Alice Smith',
  surname: 'Smith',
  gitEmail: 'alice.smith@smith-home.example.net',
};

/**
 * Every planted identity: the leak count of the planted-identities test is how
 * many of these occur (case-insensitive) in any outbound text — plan file,
 * titles, bodies, the recorded gh argv and stdin. It must be 0.
 */
export const PLANTED_IDENTITIES = [
  PLANTED.user,
  PLANTED.email,
  'zorblax.quint',
  ...PLANTED.homes,
  PLANTED.host,
  'build-7',
  'zorblax-corp',
  PLANTED.repo,
  'secret-pay',
  PLANTED.token,
  PLANTED.projectName,
  'demo:payments',
  'refund-timeout',
  ...PLANTED.tildeHomes,
  'vexilla',
  PLANTED.bareHost,
  PLANTED.fullName,
  PLANTED.surname,
  PLANTED.gitEmail,
];

/** `~/.gitconfig` of the planted user (written into the test HOME). */
export const PLANTED_GITCONFIG = `[user]\n\tname = ${PLANTED.fullName}\n\temail = ${PLANTED.gitEmail}\n`;

/** The environment the planted machine runs error-issue with (besides PATH and HOME). */
export const PLANTED_ENV = { USER: PLANTED.user, HOSTNAME: PLANTED.bareHost };

/** Every planted string that must be absent from outbound text (case-insensitive check). */
export const FORBIDDEN = [
  'zorblax',
  'quint',
  'secret-pay',
  'build-7',
  'zorblax-corp',
  'ghp_',
  'PLANTEDtoken',
  '/home/',
  '/Users/',
  'C:\\',
  'file://',
  '%2F',
  'Quintessa',
  'demo:payments',
  'refund-timeout',
  'vexilla',
  'buildbox07',
  'Alice Smith',
  'Smith',
  'alice.smith',
];

/**
 * A clean project plus: errors logs in two tasks with planted identities
 * (three clusters: okstra internal error ×4 in 2 runs, tmux missing ×2, a target
 * test failure ×2), and a second task whose run repeats result-missing.
 */
export function makePlantedProject(options: { hugeDetail?: boolean } = {}): Project {
  const p = makeCleanProject();
  p.edit('.okstra/project.json', (j) => {
    j.name = PLANTED.projectName;
  });
  p.write('.git/config', `[remote "origin"]\n\turl = git@github.com:${PLANTED.repo}.git\n`);
  p.remove(EA.result('codex'));
  // a second task with the same broken run
  const other = '.okstra/tasks/payments/chargeback-sync';
  p.write(`${other}/task-manifest.json`, {
    schemaVersion: '1.0',
    taskKey: 'demo:payments:chargeback-sync',
    projectId: 'demo',
    taskGroup: 'payments',
    taskId: 'chargeback-sync',
  });
  for (const f of [
    EA.manifest,
    EA.teamState,
    EA.prompt('claude'),
    EA.prompt('codex'),
    EA.prompt('report-writer'),
    EA.result('claude'),
    EA.sidecar('claude'),
    EA.sidecar('report-writer'),
    EA.report,
    EA.data,
  ]) {
    p.write(
      f.replace(TASK_ROOT_REL, other),
      p.read(f).replaceAll(TASK_ROOT_REL, other).replaceAll('demo:payments:refund-timeout', 'demo:payments:chargeback-sync'),
    );
  }
  const ident = {
    user: PLANTED.user,
    email: PLANTED.email,
    host: PLANTED.host,
    repo: PLANTED.repo,
    token: PLANTED.token,
    project: PLANTED.projectName,
    cwd: PLANTED.homes[0],
    paths: PLANTED.homes,
  };
  const lines = (task: string, day: string) =>
    [
      ...PLANTED.homes.slice(0, 2).map((home, i) => ({
        ts: `2026-11-${day}T08:0${i}:00Z`,
        source: 'okstra-convergence',
        kind: 'OKSTRA_INTERNAL',
        exitCode: 70,
        taskType: 'error-analysis',
        seq: '001',
        message: `internal error (this is a bug, please report it): cannot read 'verdict' of ${home}/.okstra/tasks/payments/${task}/state/r${i}.json for ${PLANTED.user}@${PLANTED.host}`,
        stack: `TypeError\n${PLANTED.homes.map((h, j) => `    at frame${j} (${h}/node_modules/@okstra/convergence/dist/collect.js:${40 + i}:7)`).join('\n')}${options.hugeDetail ? ' ' + 'lorem ipsum '.repeat(9000) : ''}`,
        note: `${PLANTED.projectName} by ${PLANTED.email} token ${PLANTED.token} repo ${PLANTED.repo} on ${PLANTED.host}`,
        ...ident,
      })),
      {
        ts: `2026-11-${day}T08:05:00Z`,
        source: 'okstra-team',
        kind: 'E_LOCK',
        message: `lock held by ${PLANTED.tildeHomes[0]} on ${PLANTED.bareHost} for ${PLANTED.tildeHomes[1]}/state.json`,
        stderr: `committed by ${PLANTED.fullName} <${PLANTED.gitEmail}>; ${PLANTED.surname} is the owner of ${PLANTED.tildeHomes[1]}`,
        taskType: 'error-analysis',
        seq: '001',
      },
      {
        ts: `2026-11-${day}T08:10:00Z`,
        source: 'okstra-team',
        kind: 'E_DISPATCH',
        message: `spawn tmux ENOENT for ${PLANTED.user} in ${PLANTED.homes[4]}`,
        taskType: 'error-analysis',
        seq: '001',
        ...ident,
      },
      {
        ts: `2026-11-${day}T08:20:00Z`,
        source: 'okstra-team',
        kind: 'E_VERIFY',
        message: `npm test: AssertionError: expected 200 to equal 504 (${PLANTED.homes[3]}/src/refund.ts:88)`,
        taskType: 'error-analysis',
        seq: '001',
        ...ident,
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n';
  p.write(`${TASK_ROOT_REL}/errors-2026-11-28.jsonl`, lines('refund-timeout', '28'));
  p.write(`${other}/errors-2026-11-29.jsonl`, lines('chargeback-sync', '29') + 'not json\n{"no":"message"}\n');
  return p;
}
