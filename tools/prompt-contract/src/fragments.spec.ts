import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.js';

const SCRIPT = join(REPO_ROOT, 'tools/sync-skill-fragments.mjs');
const SKILL = 'skills/okstra-run/SKILL.md';
const SOURCE = 'prompts/host-orchestration/implementation.md';

/** Run the real script; returns its exit code and stderr. */
function sync(...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

describe('tools/sync-skill-fragments.mjs', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'fragments-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const copy = (name: string) => {
    const root = join(tmp, name);
    cpSync(join(REPO_ROOT, 'prompts'), join(root, 'prompts'), { recursive: true });
    cpSync(join(REPO_ROOT, 'skills'), join(root, 'skills'), { recursive: true });
    return root;
  };

  it('--check passes on this checkout', () => {
    expect(sync('--check')).toEqual({ code: 0, stderr: '' });
  });

  it('the okstra-run skill carries the host-orchestration source verbatim inside the block', () => {
    const skill = readFileSync(join(REPO_ROOT, SKILL), 'utf8');
    const block = skill
      .split('<!-- BEGIN FRAGMENT: host-orchestration-implementation -->\n')[1]
      ?.split('<!-- END FRAGMENT: host-orchestration-implementation -->')[0];
    expect(block, `${SKILL}: no host-orchestration-implementation block`).toBeDefined();
    expect(block).toContain(readFileSync(join(REPO_ROOT, SOURCE), 'utf8').trimEnd());
  });

  it('--check exits 1 naming the drifted file after the source changes, writes nothing; a sync repairs it', () => {
    const root = copy('drift');
    writeFileSync(join(root, SOURCE), readFileSync(join(root, SOURCE), 'utf8') + '\nA new gate.\n');
    const before = readFileSync(join(root, SKILL), 'utf8');
    const check = sync('--check', '--root', root);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`drifted: ${SKILL} (fragment host-orchestration-implementation)`);
    expect(readFileSync(join(root, SKILL), 'utf8')).toBe(before);

    expect(sync('--root', root).code).toBe(0);
    expect(readFileSync(join(root, SKILL), 'utf8')).toContain('A new gate.');
    expect(sync('--check', '--root', root)).toEqual({ code: 0, stderr: '' });
  });

  it('--check catches a hand edit inside the block', () => {
    const root = copy('hand-edit');
    const skill = readFileSync(join(root, SKILL), 'utf8');
    writeFileSync(join(root, SKILL), skill.replace('(recommended) Run the conformance script', '(recommended) Skip the conformance script'));
    expect(sync('--check', '--root', root).code).toBe(1);
  });

  it('exits 2 with file:line for an unknown fragment or an unpaired marker', () => {
    const root = copy('malformed');
    writeFileSync(join(root, 'skills/bad.md'), '# x\n\n<!-- BEGIN FRAGMENT: nothing-here -->\n<!-- END FRAGMENT: nothing-here -->\n');
    const unknown = sync('--check', '--root', root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("skills/bad.md:3: unknown fragment 'nothing-here'");
    writeFileSync(join(root, 'skills/bad.md'), '# x\n<!-- BEGIN FRAGMENT: host-orchestration-implementation -->\nno end\n');
    const unpaired = sync('--check', '--root', root);
    expect(unpaired.code).toBe(2);
    expect(unpaired.stderr).toContain('skills/bad.md:2: BEGIN FRAGMENT: host-orchestration-implementation needs a matching');
  });

  it('refuses an unknown argument with exit 2', () => {
    expect(() => execFileSync(process.execPath, [SCRIPT, '--fix'], { stdio: 'pipe' })).toThrow(/unknown argument '--fix'/);
  });
});
