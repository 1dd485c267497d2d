import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '@okstra/cli-kit';
import { INSTALL_HOSTS, type InstallHost } from '@okstra/schemas/install-manifest';

export type Scope = 'user' | 'project';

/**
 * Where each host loads skills from (docs/install.md "Where each host loads skills"): one folder per
 * skill holding its SKILL.md. `user` is relative to the home directory, `project` to the project root.
 * Codex reads the open agent-skills folders (`~/.agents/skills`, `<repo>/.agents/skills`); Antigravity
 * reads `~/.gemini/antigravity/skills` and, in a workspace, `.agents/skills` too (so a project install for
 * codex and antigravity writes one folder once). Antigravity does not follow symlinked skill folders,
 * which is one reason install copies.
 */
export const SKILL_HOMES: Readonly<Record<InstallHost, Readonly<Record<Scope, string>>>> = {
  'claude-code': { user: '.claude/skills', project: '.claude/skills' },
  codex: { user: '.agents/skills', project: '.agents/skills' },
  antigravity: { user: '.gemini/antigravity/skills', project: '.agents/skills' },
};

/** The folder whose presence in the home directory says the host is used here (`--runtime auto`). */
const HOST_MARK: Readonly<Record<InstallHost, string | null>> = {
  'claude-code': '.claude',
  // the agent-skills folder is the shared default: always installed (seeds: "skill targets always include ~/.agents/skills")
  codex: null,
  antigravity: '.gemini',
};

export const RUNTIMES = ['auto', 'all', ...INSTALL_HOSTS] as const;

/** The home directory: `HOME` (tests point it at a temp folder), else the OS's. */
export function homeDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  if (!isAbsolute(home)) throw new UsageError(`HOME is not an absolute path ('${home}'): okstra install needs the home directory`);
  return resolve(home);
}

/** `~/.okstra` (or `OKSTRA_HOME`): where the texts and the install manifest go. */
export function okstraHome(env: NodeJS.ProcessEnv): string {
  const own = env.OKSTRA_HOME;
  if (own) {
    if (!isAbsolute(own)) throw new UsageError(`OKSTRA_HOME is not an absolute path ('${own}')`);
    return resolve(own);
  }
  return join(homeDir(env), '.okstra');
}

/** The hosts `--runtime` names: one host, all of them, or (`auto`) those whose folder is in the home directory. */
export function resolveHosts(runtime: string, env: NodeJS.ProcessEnv): InstallHost[] {
  if (runtime === 'all') return [...INSTALL_HOSTS];
  if ((INSTALL_HOSTS as readonly string[]).includes(runtime)) return [runtime as InstallHost];
  if (runtime !== 'auto') throw new UsageError(`--runtime: '${runtime}' is not one of ${RUNTIMES.join(', ')}`);
  const home = homeDir(env);
  return INSTALL_HOSTS.filter((h) => HOST_MARK[h] === null || existsSync(join(home, HOST_MARK[h]!)));
}

/** The folder `host`'s skills go to for `scope` (absolute). */
export function skillHome(host: InstallHost, scope: Scope, base: { home: string; projectRoot: string }): string {
  return join(scope === 'user' ? base.home : base.projectRoot, SKILL_HOMES[host][scope]);
}
