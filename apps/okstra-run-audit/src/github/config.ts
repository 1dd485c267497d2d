import { homedir } from 'node:os';
import { userConfigPath as userConfigPathIn, userErrorIssuePlanPath } from '@okstra/paths';
import { stat } from 'node:fs/promises';
import { readJsonFile } from '@okstra/state-file';
import { OkstraUserConfig } from '@okstra/schemas/error-issue';

/** The okstra repository: where issues go unless configured otherwise (seed 000 package author `devonshin`). */
export const DEFAULT_ISSUE_REPO = 'devonshin/okstra';

/** The user's home: `HOME` of the command's environment, else the OS's. */
export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** `~/.okstra/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
  return userConfigPathIn(homeDir(env));
}

/** Default plan file: `~/.okstra/error-issue/plan.json`. */
export function defaultPlanPath(env: NodeJS.ProcessEnv): string {
  return userErrorIssuePlanPath(homeDir(env));
}

/**
 * Read `~/.okstra/config.json` (absent → empty config).
 * @throws InputError naming the file and field when it exists but is invalid.
 */
export async function readUserConfig(env: NodeJS.ProcessEnv): Promise<OkstraUserConfig> {
  const path = userConfigPath(env);
  if (!(await stat(path).catch(() => null))) return {};
  return readJsonFile(path, { schema: OkstraUserConfig });
}
