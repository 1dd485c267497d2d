// The identity corpus of docs/error-issue.md "Corpus": a generator over
// identity classes × the places real error logs carry them (messages, stack
// frames, env dumps, git remotes, task ids), each value drawn from a seeded
// generator (so every run plants the same, unlisted, values), plus
// over-redaction cases: common words that are also identities of the machine,
// standing where they are not used as names. Not part of the build.
import type { MachineFacts } from '../machine.js';
import { seededRandom } from '@okstra/core/test-support';

/** Where a real errors log carries an identity. */
export type Place = 'message' | 'stack-frame' | 'env-dump' | 'remote' | 'task-id';

/** One planted identity: where it stands, the errors-log record carrying it, and what must never be sent. */
export interface CorpusCase {
  id: string;
  identityClass: string;
  place: Place;
  /** Fields of the errors-log record (message, stack, detail) carrying the identity. */
  record: { message: string; stack?: string; detail?: string };
  /** The task directory (group, id): the identity itself for the `task-id` place. */
  task: { group: string; id: string };
  /** What the machine knows (env, git config): empty when the identity is only in the log. */
  machine: Partial<MachineFacts>;
  /** Every fragment that identifies: none may reach the plan file, gh's argv or its stdin (case-insensitive). */
  forbidden: string[];
}

/** A common word that is an identity of the machine, in text where it is not used as a name. */
export interface OverRedactionCase {
  id: string;
  word: string;
  role: string;
  machine: Partial<MachineFacts>;
  message: string;
  /** Remote URLs of the project's `.git/config` (identities harvested from them). */
  remotes: string[];
}

/** The corpus is generated, and the same on every run: one seeded PRNG (core test-support). */
const rng = seededRandom;

const SYLLABLES = ['zor', 'vek', 'quil', 'thra', 'mio', 'lux', 'ren', 'ba', 'dru', 'kesh', 'ya', 'nor', 'vil', 'sta', 'ox', 'fen'];
const CJK = ['山田', '佐藤', '鈴木', '高橋', '王芳', '李娜', '김민준', '박서연'];
const CYRILLIC = ['Дмитрий', 'Ольга', 'Смирнов', 'Иванова'];
const ACCENTED = ['José', 'Müller', 'Zoë', 'Łukasz', 'Ångström', 'François', 'Søren', 'Çelik'];
const COMMON_SURNAMES = ['Smith', 'Brown', 'Miller', 'Baker', 'Walker', 'Young', 'King', 'Wood'];
const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface Pick {
  word: () => string;
  cap: () => string;
  of: <T>(xs: readonly T[]) => T;
  hex: (n: number) => string;
  b64: (n: number) => string;
  num: (lo: number, hi: number) => number;
}

function picker(seed: number): Pick {
  const r = rng(seed);
  const of = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const word = () => of(SYLLABLES) + of(SYLLABLES) + of(SYLLABLES);
  return {
    word,
    cap: () => {
      const w = word();
      return w[0]!.toUpperCase() + w.slice(1);
    },
    of,
    hex: (n) => Array.from({ length: n }, () => of([...HEX])).join(''),
    b64: (n) => Array.from({ length: n }, () => of([...B64])).join(''),
    num: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
  };
}

/** One identity value and its sentences per place; `forbidden` defaults to `[value]`. */
interface Drawn {
  value: string;
  forbidden?: string[];
  machine?: Partial<MachineFacts>;
  /** The identity as a phrase in a sentence (how a log line would name it). */
  phrase: string;
  /** A path that carries it (for stack frames), when it can. */
  path?: string;
  /** `KEY=value` of an env dump, when it is one. */
  env?: string;
  /** A git remote URL carrying it, when it can. */
  remote?: string;
  /** A task-id-safe spelling (letters, digits, `-`), when it can be one. */
  taskId?: string;
}

const env = (over: Record<string, string>): Partial<MachineFacts> => ({ env: { HOME: '/home/corpus', ...over } });

/** The identity classes (≥ 20): how each is drawn, and in which places it stands. */
export const IDENTITY_CLASSES: ReadonlyArray<{ name: string; draw: (p: Pick) => Drawn }> = [
  {
    name: 'user-name',
    draw: (p) => {
      const u = p.word();
      return {
        value: u,
        phrase: `by ${u}`,
        path: `/home/${u}/work/app`,
        env: `USER=${u}`,
        remote: `ssh://${u}@git.${p.word()}.internal/app.git`,
        taskId: `${u}-fix`,
      };
    },
  },
  {
    name: 'user-name-known',
    draw: (p) => {
      const u = p.word();
      return { value: u, machine: env({ USER: u }), phrase: `run of ${u} failed`, path: `/srv/${u}/app`, env: `LOGNAME=${u}`, taskId: `${u}-sync` };
    },
  },
  {
    name: 'person-name',
    draw: (p) => {
      const first = p.cap();
      const last = p.cap();
      return { value: `${first} ${last}`, forbidden: [first, last], phrase: `committed by ${first} ${last}`, env: `GIT_AUTHOR_NAME="${first} ${last}"` };
    },
  },
  {
    // issue 30: `Alice Smith` → `<name> Smith` — a surname that is also a word, after a name no list knows.
    name: 'person-common-surname',
    draw: (p) => {
      const first = p.cap();
      const last = p.of(COMMON_SURNAMES);
      return {
        value: `${first} ${last}`,
        forbidden: [first, `${first} ${last}`, `> ${last}`],
        phrase: `reviewed by ${first} ${last}`,
        env: `GIT_COMMITTER_NAME="${first} ${last}"`,
      };
    },
  },
  {
    name: 'person-name-known',
    draw: (p) => {
      const first = p.cap();
      const last = p.of(COMMON_SURNAMES);
      return {
        value: `${first} ${last}`,
        forbidden: [first, last],
        machine: { gitConfigs: [`[user]\n\tname = ${first} ${last}\n`] },
        phrase: `${last} holds the lock; ${first} ${last} again`,
        env: `GIT_AUTHOR_NAME="${first} ${last}"`,
      };
    },
  },
  {
    // issue 30: `山田` written alone leaked, though `C:\Users\山田` was redacted.
    name: 'name-cjk',
    draw: (p) => {
      const n = p.of(CJK);
      return { value: n, phrase: `${n} が失敗`, path: `C:\\Users\\${n}\\app`, env: `USERNAME=${n}` };
    },
  },
  {
    name: 'name-cyrillic',
    draw: (p) => {
      const n = p.of(CYRILLIC);
      return { value: n, phrase: `owner ${n}`, path: `/home/${n}/app`, env: `USER=${n}` };
    },
  },
  {
    name: 'name-accented-nfd',
    draw: (p) => {
      const n = p.of(ACCENTED);
      const nfd = n.normalize('NFD');
      return { value: nfd, forbidden: [n, nfd], phrase: `${nfd} started the run`, path: `/Users/${nfd}/app`, env: `USER=${nfd}` };
    },
  },
  {
    name: 'email',
    draw: (p) => {
      const e = `${p.word()}.${p.word()}@${p.word()}-corp.example.com`;
      return {
        value: e,
        forbidden: [e, e.split('@')[0]!],
        phrase: `mail to ${e}`,
        env: `EMAIL=${e}`,
        remote: `https://${e.split('@')[0]}@github.com/${p.word()}/app.git`,
      };
    },
  },
  {
    // issue 30: a host name that appears only inside a message (`… on buildbox07`).
    name: 'bare-host',
    draw: (p) => {
      const h = `${p.word()}${String(p.num(1, 99)).padStart(2, '0')}`;
      return { value: h, phrase: `lock held on ${h}`, env: `HOSTNAME=${h}`, remote: `ssh://git@${h}:2222/app.git`, taskId: `${h}` };
    },
  },
  {
    name: 'internal-fqdn',
    draw: (p) => {
      const h = `${p.word()}-${p.num(1, 9)}.${p.word()}.internal`;
      return { value: h, forbidden: [h, h.split('.')[0]!], phrase: `cannot reach ${h}:8443`, env: `NO_PROXY=${h}`, remote: `https://${h}/team/app.git` };
    },
  },
  {
    name: 'ip-address',
    draw: (p) => {
      const ip = `10.${p.num(0, 255)}.${p.num(0, 255)}.${p.num(1, 254)}`;
      return { value: ip, phrase: `connect ECONNREFUSED ${ip}:5432`, env: `PGHOST=${ip}`, remote: `ssh://git@${ip}/app.git` };
    },
  },
  {
    // issue 30: pairs with a letter survived; only all-digit pairs became `<n>`.
    name: 'md5-fingerprint',
    draw: (p) => {
      const fp = Array.from({ length: 16 }, () => p.hex(2)).join(':');
      return { value: fp, forbidden: [fp, fp.slice(6, 17)], phrase: `host key fingerprint is MD5:${fp}`, env: `SSH_FP=${fp}` };
    },
  },
  {
    name: 'sha256-fingerprint',
    draw: (p) => {
      const fp = `SHA256:${p.b64(43)}`;
      return { value: fp, forbidden: [fp.slice(7)], phrase: `ED25519 key fingerprint is ${fp}.`, env: `KEY_FP=${fp}` };
    },
  },
  {
    // issue 30: an ssh key comment `user@host-3`.
    name: 'ssh-key-comment',
    draw: (p) => {
      const u = p.word();
      const h = `${p.word()}-${p.num(1, 9)}`;
      const key = `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${p.b64(43)} ${u}@${h}`;
      return { value: `${u}@${h}`, forbidden: [u, h, key.split(' ')[1]!.slice(0, 30)], phrase: `offered key ${key}`, env: `SSH_KEY="${key}"` };
    },
  },
  {
    // issue 30: a short secret in an env dump (`PGPASSWORD=…`).
    name: 'short-secret',
    draw: (p) => {
      const s = `${p.of(['hunter', 'qwe', 'pw', 'zx'])}${p.num(1, 99)}`;
      return { value: s, phrase: `login failed with password=${s}`, env: p.of([`PGPASSWORD=${s}`, `MYSQL_PWD=${s}`, `REDIS_PASS=${s}`, `DB_SECRET=${s}`]) };
    },
  },
  {
    name: 'api-key-kv',
    draw: (p) => {
      const s = p.b64(20).replace(/[+/]/g, 'x');
      return { value: s, phrase: `request signed with api_key: ${s}`, env: `AWS_SECRET_ACCESS_KEY=${s}` };
    },
  },
  {
    name: 'token-prefix',
    draw: (p) => {
      const t = p.of(['ghp_', 'github_pat_', 'npm_', 'xoxb-', 'glpat-', 'sk-ant-', 'hf_']) + p.b64(p.num(8, 36)).replace(/[+/]/g, 'Q');
      return {
        value: t,
        forbidden: [t.slice(0, 12)],
        phrase: `authenticating with ${t}`,
        env: `GITHUB_TOKEN=${t}`,
        remote: `https://x-access-token:${t}@github.com/${p.word()}/app.git`,
      };
    },
  },
  {
    name: 'jwt',
    draw: (p) => {
      const t = `eyJhbGciOiJIUzI1NiJ9.eyJ${p.b64(24).replace(/[+/]/g, '_')}.${p.b64(22).replace(/[+/]/g, '-')}`;
      return { value: t, forbidden: [t.slice(20, 40)], phrase: `Authorization: Bearer ${t}`, env: `SESSION=${t}` };
    },
  },
  {
    name: 'credential-url',
    draw: (p) => {
      const u = p.word();
      const pw = `${p.word()}${p.num(10, 99)}`;
      const h = `git.${p.word()}.internal`;
      return {
        value: `${u}:${pw}@${h}`,
        forbidden: [u, pw, h],
        phrase: `fetch https://${u}:${pw}@${h}/team/app.git failed`,
        env: `REPO_URL=https://${u}:${pw}@${h}/team/app.git`,
        remote: `https://${u}:${pw}@${h}/team/app.git`,
      };
    },
  },
  {
    name: 'registry-image',
    draw: (p) => {
      const img = `registry.${p.word()}.internal:5000/${p.word()}/api:${p.num(1, 9)}.${p.num(0, 9)}`;
      return { value: img, forbidden: [img.split('/')[0]!, img.split('/')[1]!], phrase: `pull ${img} failed: manifest unknown`, env: `IMAGE=${img}` };
    },
  },
  {
    name: 'git-remote-owner',
    draw: (p) => {
      const owner = `${p.word()}-org`;
      const repo = `${p.word()}-${p.word()}`;
      return {
        value: `${owner}/${repo}`,
        forbidden: [owner, repo],
        phrase: `push to ${owner}/${repo} rejected`,
        env: `GIT_REMOTE=git@github.com:${owner}/${repo}.git`,
        remote: `git@github.com:${owner}/${repo}.git`,
        taskId: repo,
      };
    },
  },
  {
    name: 'mac-address',
    draw: (p) => {
      const mac = Array.from({ length: 6 }, () => p.hex(2)).join(':');
      return { value: mac, phrase: `interface eth0 ether ${mac}`, env: `MAC=${mac}` };
    },
  },
  {
    name: 'windows-home',
    draw: (p) => {
      const u = p.cap();
      return { value: u, phrase: `cannot open C:\\Users\\${u}\\AppData\\okstra.log`, path: `C:\\Users\\${u}\\src\\app`, env: `USERPROFILE=C:\\Users\\${u}` };
    },
  },
  {
    name: 'private-key',
    draw: (p) => {
      const body = p.b64(64);
      return {
        value: body,
        forbidden: [body.slice(0, 24)],
        phrase: `loaded -----BEGIN OPENSSH PRIVATE KEY----- ${body} -----END OPENSSH PRIVATE KEY-----`,
        env: `DEPLOY_KEY="${body}"`,
      };
    },
  },
  {
    // first and last names that are both English words: only where they stand tells they are a name.
    name: 'person-english-words',
    draw: (p) => {
      const first = p.of(['Rose', 'Grant', 'Will', 'Mark', 'Hope', 'Faith', 'Pat', 'Dawn']);
      const last = p.of(COMMON_SURNAMES);
      return {
        value: `${first} ${last}`,
        forbidden: [`${first} ${last}`, `${first} <`, `> ${last}`],
        phrase: `Signed-off-by: ${first} ${last}`,
        env: `GIT_AUTHOR_NAME="${first} ${last}"`,
      };
    },
  },
  {
    name: 'handle',
    draw: (p) => {
      const h = p.of(['bob', 'sam', 'kit', 'max', 'ray']) + p.of(['', '', p.word()]);
      return { value: `@${h}`, phrase: `ping @${h} for review`, env: `SLACK_MENTION=@${h}` };
    },
  },
  {
    name: 'project-codename',
    draw: (p) => {
      const n = `${p.cap()}${p.of(['Ledger', 'Vault', 'Pay', 'Core'])}`;
      return { value: n, phrase: `${n} build broke`, path: `/opt/${n}/dist/index.js`, env: `PROJECT=${n}`, taskId: n.toLowerCase() };
    },
  },
];

const STACK = (frame: string) =>
  `TypeError: Cannot read properties of undefined (reading 'verdict')\n    at collectResults (${frame}:40:13)\n    at async main (node:internal/main:12:3)`;

/** Each class in each place it can stand in, `variants` values per place. */
export function identityCorpus(variants = 2): CorpusCase[] {
  const cases: CorpusCase[] = [];
  IDENTITY_CLASSES.forEach((cls, ci) => {
    const places: Place[] = ['message', 'stack-frame', 'env-dump', 'remote', 'task-id'];
    places.forEach((place, pi) => {
      for (let v = 0; v < variants; v++) {
        const d = cls.draw(picker(1000 * ci + 10 * pi + v + 1));
        const forbidden = d.forbidden ?? [d.value];
        const task = { group: 'payments', id: `task-${ci}-${pi}-${v}` };
        let record: CorpusCase['record'] | null = null;
        if (place === 'message') record = { message: `okstra-team lock failed: ${d.phrase} after 3 attempts` };
        if (place === 'stack-frame')
          record = {
            message: 'internal error (this is a bug, please report it): cannot collect results',
            stack: STACK(d.path ?? `/opt/app/${d.phrase.replace(/\s+/g, '_')}`),
          };
        if (place === 'env-dump' && d.env)
          record = {
            message: 'okstra-team dispatch failed: provider exited 1',
            detail: `env:\nPATH=/usr/bin:/bin\n${d.env}\nLANG=en_US.UTF-8\nNODE_ENV=production`,
          };
        if (place === 'remote' && d.remote)
          record = { message: 'okstra-team git remote check failed', detail: `origin\t${d.remote} (fetch)\norigin\t${d.remote} (push)` };
        if (place === 'task-id' && d.taskId) {
          task.id = d.taskId;
          record = { message: `worker codex of task ${task.group}:${d.taskId} crashed` };
        }
        if (!record) continue;
        cases.push({ id: `${cls.name}@${place}#${v}`, identityClass: cls.name, place, record, task, machine: d.machine ?? {}, forbidden });
      }
    });
  });
  return cases;
}

/** Common words of software logs that a user, host, person or project may also be named. */
const COMMON = ['dev', 'git', 'admin', 'test', 'deploy', 'staging', 'build', 'data', 'web', 'main'];

/**
 * Each common word as each kind of identity the machine offers (user name,
 * URL host label, person's surname, project directory), in sentences that use
 * it as an ordinary word: it must survive everywhere (issue 30: `USER=dev`
 * made every `dev` a `<name>`; a host label `git` made `git push` `<name> push`).
 */
export function overRedactionCorpus(): OverRedactionCase[] {
  const sentences = (w: string) => [`okstra-team ${w} server failed to start in ${w} mode`, `okstra-team ${w}-remote: ${w} push failed after the ${w} step`];
  const cases: OverRedactionCase[] = [];
  for (const w of COMMON) {
    const roles: Array<[string, Partial<MachineFacts>, string[]]> = [
      ['user', env({ USER: w, LOGNAME: w }), []],
      ['host-label', env({}), [`https://corpus:pw@${w}.example.internal/acme/app.git`]],
      ['hostname', { ...env({ HOSTNAME: w }), hostnames: [`${w}.lan`] }, []],
    ];
    // a person whose surname is the word: `the deploy step` is not about them.
    roles.push(['surname', { ...env({}), gitConfigs: [`[user]\n\tname = Ilsa ${w[0]!.toUpperCase()}${w.slice(1)}\n`] }, []]);
    for (const [role, machine, remotes] of roles)
      sentences(w).forEach((message, i) => cases.push({ id: `${w}-as-${role}#${i}`, word: w, role, machine, message, remotes }));
  }
  return cases;
}
