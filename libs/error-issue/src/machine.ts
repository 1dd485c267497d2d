import { readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { addPersonName, GENERIC_ACCOUNTS, harvestIdentities, type IdentitySet } from './identities.js';

/**
 * What the machine says about its user and itself (docs/error-issue.md
 * "Identities"), gathered once and injected, so identity harvest is a pure
 * function tests can feed any machine.
 */
export interface MachineFacts {
  /** The command's environment (`USER`, `LOGNAME`, `USERNAME`, `HOME`, `HOSTNAME`, `HOST`, `COMPUTERNAME`, `EMAIL`, `GIT_AUTHOR_*`, `GIT_COMMITTER_*`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Every host name the machine reports (`os.hostname()`, `/etc/hostname`, `/etc/mailname`). */
  hostnames: readonly string[];
  /** The OS account (`os.userInfo()`), null when it cannot be read. */
  account: { username: string; homedir: string; uid: number } | null;
  /** The text of `/etc/passwd` ('' when unreadable): the account's full name is its GECOS field. */
  passwd: string;
  /** Texts of the user's git config files (`$HOME/.gitconfig`, `$XDG_CONFIG_HOME/git/config`, `$HOME/.config/git/config`). */
  gitConfigs: readonly string[];
}

/** Read the facts of this machine for a command running with `env` (files that cannot be read count as empty). */
export function readMachineFacts(env: Readonly<Record<string, string | undefined>>): MachineFacts {
  const text = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  const home = env.HOME ?? '';
  const xdg = env.XDG_CONFIG_HOME || (home ? join(home, '.config') : '');
  const gitConfigs = [...new Set([home && join(home, '.gitconfig'), xdg && join(xdg, 'git', 'config'), home && join(home, '.config', 'git', 'config')])]
    .filter(Boolean)
    .map(text);
  let account: MachineFacts['account'] = null;
  try {
    const u = userInfo();
    account = { username: u.username, homedir: u.homedir, uid: u.uid };
  } catch {
    account = null;
  }
  return {
    env,
    hostnames: [safe(hostname) ?? '', text('/etc/hostname'), text('/etc/mailname')].map((h) => h.trim()).filter(Boolean),
    account,
    passwd: text('/etc/passwd'),
    gitConfigs,
  };
}

/**
 * Every identity the machine offers (docs/error-issue.md "Identities"): user
 * names (`USER`, `LOGNAME`, `USERNAME`, the OS account) and their `~user`
 * spelling, home directories (whole and last segment), full names (the
 * account's passwd GECOS field, git config `user.name`, `GIT_AUTHOR_NAME`,
 * `GIT_COMMITTER_NAME`) whole and word by word, emails (git config
 * `user.email`, `EMAIL`, `GIT_*_EMAIL`), and every host name form — full,
 * bare (first label) and each label. Generic accounts (`root`, `git`, …) name no one.
 */
export function machineIdentities(facts: MachineFacts, into: IdentitySet): IdentitySet {
  const env = facts.env;
  const users = [env.USER, env.LOGNAME, env.USERNAME, facts.account?.username].filter((u): u is string => !!u && !GENERIC_ACCOUNTS.has(u.toLowerCase()));
  for (const u of users) into.add(u, `~${u}`);
  for (const home of [env.HOME, facts.account?.homedir]) {
    if (!home || home === '/') continue;
    const last = basename(home);
    into.add(home, ...(GENERIC_ACCOUNTS.has(last.toLowerCase()) ? [] : [last]));
  }
  for (const name of [gecosName(facts), env.GIT_AUTHOR_NAME, env.GIT_COMMITTER_NAME, ...facts.gitConfigs.map((t) => gitConfigValue(t, 'user', 'name'))]) {
    if (name && !GENERIC_ACCOUNTS.has(name.trim().toLowerCase())) addPersonName(name, into);
  }
  for (const email of [env.EMAIL, env.GIT_AUTHOR_EMAIL, env.GIT_COMMITTER_EMAIL, ...facts.gitConfigs.map((t) => gitConfigValue(t, 'user', 'email'))]) {
    if (email) harvestIdentities(email, into);
  }
  for (const host of [...facts.hostnames, env.HOSTNAME, env.HOST, env.COMPUTERNAME]) {
    const h = host?.trim().toLowerCase();
    if (!h || h === 'localhost') continue;
    into.addAs('host', h, ...h.split('.').filter((label, i, all) => i === 0 || i < all.length - 1));
  }
  return into;
}

/** The full name of the account in `/etc/passwd` (the GECOS field's first comma part), matched by uid, else by user name. */
export function gecosName(facts: MachineFacts): string | null {
  const name = facts.account?.username ?? facts.env.USER;
  for (const line of facts.passwd.split('\n')) {
    const f = line.split(':');
    if (f.length < 5) continue;
    if ((facts.account && Number(f[2]) === facts.account.uid) || (!facts.account && f[0] === name)) return f[4]!.split(',')[0]!.trim() || null;
  }
  return null;
}

/** The value of `key` in `[section]` of a git config text (last one wins, as git reads it; quotes removed). */
export function gitConfigValue(text: string, section: string, key: string): string | null {
  let inSection = false;
  let value: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (head) {
      inSection = head[1]!.toLowerCase() === section.toLowerCase() && !/"/.test(line);
      continue;
    }
    if (!inSection) continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (kv && kv[1]!.toLowerCase() === key.toLowerCase())
      value = kv[2]!
        .replace(/\s+[#;].*$/, '')
        .replace(/^"(.*)"$/, '$1')
        .trim();
  }
  return value;
}

function safe<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}
