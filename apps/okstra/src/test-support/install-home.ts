import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What {@link installIntoTempHome} made. */
export interface InstalledHome {
  /** The temp HOME. */
  home: string;
  /** `<home>/.okstra/prompts`: the lead and worker texts. */
  prompts: string;
  /** The folder holding one folder per skill, for the host installed (`<home>/.claude/skills` for claude-code). */
  skills: string;
  /** Remove the temp HOME. */
  remove(): void;
}

const SKILL_FOLDER = { 'claude-code': '.claude/skills', codex: '.agents/skills', antigravity: '.gemini/antigravity/skills' } as const;

/**
 * Run the built `okstra install --runtime <host>` (apps/okstra/dist/bin.js, or `bin`) into a fresh temp HOME, so a
 * test can drive a lead from the texts as a user gets them (docs/install.md). Throws with the bin's stderr when
 * the install does not exit 0.
 */
export function installIntoTempHome(
  host: keyof typeof SKILL_FOLDER = 'claude-code',
  bin = new URL('../../dist/bin.js', import.meta.url).pathname,
): InstalledHome {
  const home = mkdtempSync(join(tmpdir(), 'okstra-installed-home-'));
  const r = spawnSync(process.execPath, [bin, 'install', '--runtime', host], { env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(home, { recursive: true, force: true });
    throw new Error(`okstra install --runtime ${host} exited ${r.status}: ${r.stderr}`);
  }
  return {
    home,
    prompts: join(home, '.okstra', 'prompts'),
    skills: join(home, SKILL_FOLDER[host]),
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}
