// `okstra install` through the real bin, into a temp HOME: where each host's skills land, the manifest,
// drift (`--check`), conflicts, symlinked targets, --dry-run, --scope project.
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBin } from '@okstra/core/test-support';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const REPO = new URL('../../../', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempHome(marks: string[] = []): string {
  const home = mkdtempSync(join(tmpdir(), 'okstra-home-'));
  dirs.push(home);
  for (const m of marks) mkdirSync(join(home, m), { recursive: true });
  return home;
}

function okstra(home: string, args: string[], cwd?: string) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home };
  return runBin(bin, ['install', ...args], { env, cwd });
}

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

const SKILLS = readdirSync(join(REPO, 'skills')).filter((s) => existsSync(join(REPO, 'skills', s, 'SKILL.md')));
const PROMPTS = tree(join(REPO, 'prompts'));

describe('okstra install', () => {
  it('--runtime claude-code puts each skill where Claude Code loads it and the texts under ~/.okstra/prompts; --check: no drift', () => {
    const home = tempHome();
    const r = okstra(home, ['--runtime', 'claude-code']);
    expect(r.code, r.stderr).toBe(0);
    for (const s of SKILLS) {
      expect(readFileSync(join(home, '.claude/skills', s, 'SKILL.md'), 'utf8')).toBe(readFileSync(join(REPO, 'skills', s, 'SKILL.md'), 'utf8'));
    }
    expect(tree(join(home, '.okstra/prompts'))).toEqual(PROMPTS);
    expect(existsSync(join(home, '.agents'))).toBe(false);
    const manifest = JSON.parse(readFileSync(join(home, '.okstra/install-manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ schemaVersion: '1.0', kind: 'okstra-install-manifest', okstraVersion: '0.1.0' });
    expect(manifest.files).toHaveLength(PROMPTS.length + tree(join(REPO, 'skills')).length);
    const check = okstra(home, ['--check']);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toMatch(/files match okstra 0\.1\.0/);
    // a second install changes nothing
    const again = okstra(home, ['--runtime', 'claude-code', '--json']);
    expect(again.code).toBe(0);
    expect(new Set(JSON.parse(again.stdout).steps.map((s: { action: string }) => s.action))).toEqual(new Set(['unchanged']));
  });

  it('--runtime auto: codex (~/.agents/skills) always, claude-code and antigravity when their folders exist', () => {
    const bare = tempHome();
    expect(okstra(bare, []).code).toBe(0);
    expect(readdirSync(join(bare, '.agents/skills')).sort()).toEqual(SKILLS.sort());
    expect(existsSync(join(bare, '.claude'))).toBe(false);
    const both = tempHome(['.claude', '.gemini']);
    expect(okstra(both, []).code).toBe(0);
    for (const home of ['.claude/skills', '.agents/skills', '.gemini/antigravity/skills']) expect(readdirSync(join(both, home)).sort()).toEqual(SKILLS.sort());
  });

  it('--dry-run writes nothing; --scope project writes into the project only (the texts still go to ~/.okstra)', () => {
    const home = tempHome(['.claude']);
    const dry = okstra(home, ['--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).steps.every((s: { action: string }) => s.action === 'create')).toBe(true);
    expect(readdirSync(home)).toEqual(['.claude']);
    const project = mkdtempSync(join(tmpdir(), 'okstra-project-'));
    dirs.push(project);
    const r = okstra(home, ['--scope', 'project', '--runtime', 'all'], project);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(project, '.claude/skills')).sort()).toEqual(SKILLS.sort());
    // codex and antigravity share the project's .agents/skills: written once
    expect(readdirSync(join(project, '.agents/skills')).sort()).toEqual(SKILLS.sort());
    expect(existsSync(join(home, '.claude/skills'))).toBe(false);
    expect(tree(join(home, '.okstra/prompts'))).toEqual(PROMPTS);
  });

  it('drift: a hand edit is `modified` (exit 1) and refused by install (exit 2, nothing written) until --force; an outdated file is updated', () => {
    const home = tempHome();
    expect(okstra(home, ['--runtime', 'claude-code']).code).toBe(0);
    const skill = join(home, '.claude/skills/okstra-run/SKILL.md');
    const prompt = join(home, '.okstra/prompts/lead/okstra-tools.md');
    writeFileSync(skill, 'edited by hand\n');
    rmSync(prompt);
    const check = okstra(home, ['--check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`modified  ${skill}`);
    expect(check.stdout).toContain(`missing   ${prompt}`);
    const refused = okstra(home, ['--runtime', 'claude-code']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${skill} changed since okstra installed it`);
    expect(existsSync(prompt)).toBe(false); // nothing written
    expect(okstra(home, ['--runtime', 'claude-code', '--force']).code).toBe(0);
    expect(okstra(home, ['--check']).code).toBe(0);
    // An install by an older okstra: the manifest records other bytes, the file holds them → outdated, then updated.
    const manifestFile = join(home, '.okstra/install-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const row = manifest.files.find((f: { path: string }) => f.path === skill);
    writeFileSync(skill, 'an older text\n');
    row.sha256 = createHash('sha256').update('an older text\n').digest('hex');
    writeFileSync(manifestFile, JSON.stringify(manifest));
    expect(okstra(home, ['--check']).stdout).toContain(`outdated  ${skill}`);
    const update = okstra(home, ['--runtime', 'claude-code', '--json']);
    expect(update.code).toBe(0);
    expect(JSON.parse(update.stdout).steps.find((s: { path: string }) => s.path === skill).action).toBe('update');
    expect(okstra(home, ['--check']).code).toBe(0);
  });

  it('a file okstra did not write is a conflict; a symlinked file or a folder leading out of its root is refused even with --force', () => {
    const home = tempHome(['.claude/skills/okstra-run']);
    writeFileSync(join(home, '.claude/skills/okstra-run/SKILL.md'), 'my own skill\n');
    const r = okstra(home, ['--runtime', 'claude-code']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exists and was not written by okstra install/);
    expect(existsSync(join(home, '.okstra'))).toBe(false);

    const outside = mkdtempSync(join(tmpdir(), 'okstra-outside-'));
    dirs.push(outside);
    const linked = tempHome(['.claude/skills']);
    symlinkSync(outside, join(linked, '.claude/skills/okstra-inspect'));
    const out = okstra(linked, ['--runtime', 'claude-code', '--force']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/leads outside .* through a symlink/);
    expect(readdirSync(outside)).toEqual([]);

    const fileLink = tempHome(['.claude/skills/okstra-run']);
    writeFileSync(join(outside, 'target.md'), 'not okstra\n');
    symlinkSync(join(outside, 'target.md'), join(fileLink, '.claude/skills/okstra-run/SKILL.md'));
    const viaLink = okstra(fileLink, ['--runtime', 'claude-code', '--force']);
    expect(viaLink.code).toBe(2);
    expect(readFileSync(join(outside, 'target.md'), 'utf8')).toBe('not okstra\n');
    expect(lstatSync(join(fileLink, '.claude/skills/okstra-run/SKILL.md')).isSymbolicLink()).toBe(true);
  });

  it('bad input: an unknown --runtime or --scope, --check with --force, a damaged manifest: exit 2 naming it', () => {
    const home = tempHome();
    expect(okstra(home, ['--runtime', 'vscode']).stderr).toMatch(/--runtime: 'vscode' is not one of auto, all, claude-code, codex, antigravity/);
    expect(okstra(home, ['--scope', 'system']).code).toBe(2);
    expect(okstra(home, ['--check', '--force']).code).toBe(2);
    mkdirSync(join(home, '.okstra'));
    writeFileSync(join(home, '.okstra/install-manifest.json'), '{"schemaVersion":"1.0"');
    const r = okstra(home, ['--check']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('install-manifest.json');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
