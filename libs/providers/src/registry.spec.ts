import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argvOf, assertProviderRole, buildLaunch, capabilityOfRole, getProvider, loadProviderRegistry, userProvidersDir } from './index.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'okstra-prov-'));
  dirs.push(d);
  return d;
};
const values = {
  model: 'opus',
  promptPath: '/p/x.md',
  resultPath: '/p/r.md',
  projectRoot: '/p',
  writeRoot: '/p/out',
  lastMessagePath: '/p/x.last-message.txt',
};

describe('provider registry', () => {
  it('bundles claude, codex, antigravity, grok, kimi; claude stream-json carries --verbose', async () => {
    const reg = await loadProviderRegistry(undefined);
    expect([...reg.keys()].sort()).toEqual(['antigravity', 'claude', 'codex', 'grok', 'kimi']);
    const claude = buildLaunch(getProvider(reg, 'claude'), values, 'analyser');
    expect(claude.file).toBe('claude');
    expect(claude.args.slice(0, 5)).toEqual(['-p', '--model', 'opus', '--output-format=stream-json', '--verbose']);
  });

  it('headless launches: claude dontAsk with edits pre-approved under {writeRoot} only; codex workspace-write in {writeRoot}, git check skipped; never a bypass', async () => {
    const reg = await loadProviderRegistry(undefined);
    const claude = buildLaunch(getProvider(reg, 'claude'), values, 'analyser').args;
    expect(claude.slice(5)).toEqual([
      '--permission-mode',
      'dontAsk',
      '--tools',
      'Read,Glob,Grep,Edit,Write,Bash',
      '--allowedTools',
      'Read',
      'Glob',
      'Grep',
      'Bash(date:*)',
      'Edit(//p/out/**)',
      'Write(//p/out/**)',
    ]);
    const codex = buildLaunch(getProvider(reg, 'codex'), values, 'analyser').args;
    expect(codex).toEqual([
      'exec',
      '--json',
      '--model',
      'opus',
      '--sandbox',
      'workspace-write',
      '--config',
      'approval_policy="never"',
      '--cd',
      '/p/out',
      '--skip-git-repo-check',
      '--config',
      'sandbox_workspace_write.exclude_slash_tmp=true',
      '--config',
      'sandbox_workspace_write.exclude_tmpdir_env_var=true',
      '--config',
      'features.plugins=false',
      '--config',
      'features.remote_plugin=false',
      '--config',
      'features.apps=false',
      '--config',
      'analytics.enabled=false',
      '--output-last-message',
      '/p/x.last-message.txt',
      '-',
    ]);
    // What a launch must set: claude's non-essential traffic and auto-updater off; the others set nothing.
    expect(buildLaunch(getProvider(reg, 'claude'), values, 'analyser').env).toEqual({
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    });
    expect(buildLaunch(getProvider(reg, 'codex'), values, 'analyser').env).toBeUndefined();
    // No bundled launch of any role bypasses its CLI's sandbox or approvals.
    for (const p of reg.values()) {
      for (const argv of [p.manifest.argv, ...Object.values(p.manifest.argvByCapability ?? {})]) {
        expect(argv.join(' ')).not.toMatch(/dangerously|bypass|skip-permissions|danger-full-access|--yolo|--always-approve/);
      }
    }
    expect(getProvider(reg, 'claude').manifest.capture).toBe('claude-stream-json');
    expect(getProvider(reg, 'codex').manifest.capture).toBe('codex-jsonl');
    expect(buildLaunch(getProvider(reg, 'grok'), values, 'analyser')).toEqual({
      file: 'grok',
      args: ['--prompt-file', '/p/x.md', '--model', 'opus', '--no-auto-update'],
    });
    expect(getProvider(reg, 'grok').manifest.promptDelivery).toBe('argument');
  });

  it("a claude implementer runs Bash inside Claude Code's sandbox; every other role, and codex in any role, keeps the one launch", async () => {
    const reg = await loadProviderRegistry(undefined);
    const claude = getProvider(reg, 'claude');
    const analyser = buildLaunch(claude, values, 'analyser').args;
    const implementer = buildLaunch(claude, values, 'Executor').args;
    expect(implementer.slice(0, analyser.length)).toEqual(analyser);
    expect(implementer.slice(analyser.length, -1)).toEqual(['--settings']);
    expect(JSON.parse(implementer.at(-1)!)).toEqual({
      sandbox: { enabled: true, failIfUnavailable: true, autoAllowBashIfSandboxed: true, allowUnsandboxedCommands: false, network: { allowedDomains: [] } },
    });
    for (const role of ['analyser', 'worker-reverify-r1', 'Report writer worker', 'critic', 'Verifier']) {
      expect(buildLaunch(claude, values, role).args, role).toEqual(analyser);
      expect(argvOf(claude.manifest, role), role).toBe(claude.manifest.argv);
    }
    const codex = getProvider(reg, 'codex');
    expect(buildLaunch(codex, values, 'implementer').args).toEqual(buildLaunch(codex, values, 'analyser').args);
  });

  it("a user install's argvByCapability replaces argv for that capability only; a bad placeholder there names its field", async () => {
    const home = tmp();
    const dir = join(userProvidersDir(home), 'two');
    mkdirSync(dir, { recursive: true });
    const manifest = { schemaVersion: '1.0', id: 'two', executable: 'two', argv: ['--read-only'], capabilities: ['analysis', 'implementation'] };
    writeFileSync(join(dir, 'provider.json'), JSON.stringify({ ...manifest, argvByCapability: { implementation: ['--edit', '{writeRoot}'] } }));
    const two = getProvider(await loadProviderRegistry(home), 'two');
    expect(buildLaunch(two, values, 'implementer').args).toEqual(['--edit', '/p/out']);
    expect(buildLaunch(two, values, 'analyser').args).toEqual(['--read-only']);
    writeFileSync(join(dir, 'provider.json'), JSON.stringify({ ...manifest, argvByCapability: { implementation: ['{nope}'] } }));
    const bad = getProvider(await loadProviderRegistry(home), 'two');
    expect(() => buildLaunch(bad, values, 'implementer')).toThrow(expect.objectContaining({ field: 'argvByCapability.implementation[0]' }));
    writeFileSync(join(dir, 'provider.json'), JSON.stringify({ ...manifest, argvByCapability: { reviewer: ['x'] } }));
    await expect(loadProviderRegistry(home)).rejects.toMatchObject({ message: 'Unrecognized key: "reviewer"', field: 'argvByCapability' });
  });

  it('roles per the 0.164.0 table: grok/kimi read-only analyser and critic', async () => {
    const reg = await loadProviderRegistry(undefined);
    expect(capabilityOfRole('worker-reverify-r2')).toBe('analysis');
    expect(capabilityOfRole('report-writer')).toBe('report-writer');
    expect(capabilityOfRole('executor')).toBe('implementation');
    for (const id of ['claude', 'codex']) expect(assertProviderRole(getProvider(reg, id).manifest, 'report-writer')).toBe('report-writer');
    expect(assertProviderRole(getProvider(reg, 'antigravity').manifest, 'executor')).toBe('implementation');
    expect(() => assertProviderRole(getProvider(reg, 'antigravity').manifest, 'report-writer')).toThrow(/cannot take role 'report-writer'/);
    for (const id of ['grok', 'kimi']) {
      expect(assertProviderRole(getProvider(reg, id).manifest, 'critic')).toBe('critic');
      expect(() => assertProviderRole(getProvider(reg, id).manifest, 'implementer', { field: 'jobs[0].role' })).toThrow(/needs implementation/);
    }
  });

  it('discovers user installs under ~/.okstra/adapters/providers/<id>/ and resolves their relative executable', async () => {
    const home = tmp();
    const dir = join(userProvidersDir(home), 'stub');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'provider.json'),
      JSON.stringify({ schemaVersion: '1.0', id: 'stub', executable: './run.sh', argv: ['--model={model}', '{promptPath}'], capabilities: ['analysis'] }),
    );
    const reg = await loadProviderRegistry(home);
    const stub = getProvider(reg, 'stub');
    expect(stub.source).toBe('user');
    expect(buildLaunch(stub, values, 'analyser')).toEqual({ file: join(dir, 'run.sh'), args: ['--model=opus', '/p/x.md'] });
  });

  it('an invalid user manifest or a mismatched id is an input error naming the file', async () => {
    const home = tmp();
    const dir = join(userProvidersDir(home), 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'provider.json'), JSON.stringify({ schemaVersion: '1.0', id: 'bad', executable: 'x', argv: [], capabilities: [] }));
    await expect(loadProviderRegistry(home)).rejects.toMatchObject({ file: join(dir, 'provider.json'), field: 'capabilities' });
    writeFileSync(join(dir, 'provider.json'), JSON.stringify({ schemaVersion: '1.0', id: 'other', executable: 'x', argv: [], capabilities: ['analysis'] }));
    await expect(loadProviderRegistry(home)).rejects.toMatchObject({ field: 'id' });
  });

  it('a user provider directory inside the project root (HOME = the project, or a symlink to it) is refused, never loaded', async () => {
    const project = tmp();
    const dir = join(userProvidersDir(project), 'shipped');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'provider.json'),
      JSON.stringify({ schemaVersion: '1.0', id: 'shipped', executable: './x.sh', argv: [], capabilities: ['analysis'] }),
    );
    const link = join(tmp(), 'home');
    symlinkSync(project, link);
    for (const home of [project, link, join(project, 'sub', '..')]) {
      await expect(loadProviderRegistry(home, project)).rejects.toMatchObject({ exitCode: 2, file: userProvidersDir(home) });
    }
    // A HOME elsewhere, or inside the project with no provider directory, loads as before.
    expect(getProvider(await loadProviderRegistry(tmp(), project), 'claude').source).toBe('bundled');
    expect((await loadProviderRegistry(join(project, 'src'), project)).has('shipped')).toBe(false);
  });

  it('an unknown provider names the known ones', async () => {
    const reg = await loadProviderRegistry(undefined);
    expect(() => getProvider(reg, 'gemini')).toThrow("unknown provider 'gemini' (known: antigravity, claude, codex, grok, kimi)");
  });
});
