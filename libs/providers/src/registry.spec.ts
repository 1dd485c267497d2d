import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertProviderRole, buildLaunch, capabilityOfRole, getProvider, loadProviderRegistry, userProvidersDir } from './index.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'okstra-prov-'));
  dirs.push(d);
  return d;
};
const values = { model: 'opus', promptPath: '/p/x.md', resultPath: '/p/r.md', projectRoot: '/p' };

describe('provider registry', () => {
  it('bundles claude, codex, antigravity, grok, kimi; claude stream-json carries --verbose', async () => {
    const reg = await loadProviderRegistry(undefined);
    expect([...reg.keys()].sort()).toEqual(['antigravity', 'claude', 'codex', 'grok', 'kimi']);
    expect(buildLaunch(getProvider(reg, 'claude'), values)).toEqual({
      file: 'claude',
      args: ['-p', '--model', 'opus', '--output-format=stream-json', '--verbose'],
    });
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
    expect(buildLaunch(stub, values)).toEqual({ file: join(dir, 'run.sh'), args: ['--model=opus', '/p/x.md'] });
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

  it('an unknown provider names the known ones', async () => {
    const reg = await loadProviderRegistry(undefined);
    expect(() => getProvider(reg, 'gemini')).toThrow("unknown provider 'gemini' (known: antigravity, claude, codex, grok, kimi)");
  });
});
