import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installInto, publishWorkspace, repoRoot, seedThirdParty, startRegistry, type LocalRegistry } from './local-registry.js';

const TOOLS = ['okstra-convergence', 'okstra-plan-items', 'okstra-worker-liveness', 'okstra-run-audit', 'okstra-team'] as const;
const version = JSON.parse(readFileSync(join(repoRoot, 'apps/okstra/package.json'), 'utf8')).version as string;

let registry: LocalRegistry;
let binDir: string;
let okstraOnlyBinDir: string;

function run(dir: string, bin: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  // PATH holds only the prefix's bin and node's own dir: nothing from the workspace can leak in.
  const r = spawnSync(join(dir, bin), args, {
    encoding: 'utf8',
    cwd: registry.dir,
    env: { HOME: registry.dir, PATH: `${dir}:${join(process.execPath, '..')}:/usr/bin:/bin`, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  registry = await startRegistry();
  await seedThirdParty(registry);
  publishWorkspace(registry);
  binDir = installInto(registry, ['okstra@e2e', ...TOOLS.map((t) => `${t}@e2e`)]);
  okstraOnlyBinDir = installInto(registry, ['okstra@e2e']);
}, 600_000);

afterAll(async () => {
  await registry?.stop();
});

describe('packages installed from a local registry', () => {
  it('installs one bin per tool plus the umbrella', () => {
    for (const bin of ['okstra', ...TOOLS]) expect(existsSync(join(binDir, bin)), bin).toBe(true);
  });

  it('okstra --help lists the tools', () => {
    const r = run(binDir, 'okstra', ['--help']);
    expect(r.code).toBe(0);
    for (const word of [
      'convergence',
      'plan-items',
      'incremental-scope',
      'worker-liveness',
      'run-audit',
      'worker-audit-check',
      'error-issue',
      'team',
      'worker-state',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${word} `, 'm'));
    }
  });

  it.each(TOOLS)('%s --version answers directly and through okstra', (tool) => {
    const direct = run(binDir, tool, ['--version']);
    const via = run(binDir, 'okstra', [tool.replace(/^okstra-/, ''), '--version']);
    expect(direct).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(via).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('okstra convergence --help shows the convergence sub-commands', () => {
    const r = run(binDir, 'okstra', ['convergence', '--help']);
    expect(r.code).toBe(0);
    for (const sub of ['seed', 'plan-round', 'collect-results', 'apply-round', 'apply-critic-gaps', 'finalize', 'validate', 'example']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${sub} `, 'm'));
    }
  });

  it('a usage error exits 2 the same way directly and through okstra', () => {
    const direct = run(binDir, 'okstra-team', ['worker-state', 'transition', '--worker', 'claude']);
    const via = run(binDir, 'okstra', ['worker-state', 'transition', '--worker', 'claude']);
    expect(direct.code).toBe(2);
    expect(via.code).toBe(2);
    expect(via.stderr).toBe(direct.stderr);
    expect(direct.stderr).toMatch(/^okstra-team: required option '--team-state <path>' not specified\n$/);
  });

  it('an unknown word exits 2 listing the known tools', () => {
    const r = run(binDir, 'okstra', ['nonsense']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra: unknown command 'nonsense' \(known: convergence, /);
  });

  it('a known tool whose package is not installed exits 2 naming the package', () => {
    const r = run(okstraOnlyBinDir, 'okstra', ['convergence', '--version']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("okstra: 'convergence' needs the package okstra-convergence, which is not installed (npm install -g okstra-convergence)\n");
  });

  it('ships the generated JSON Schemas in @okstra/schemas', () => {
    const schemaFile = join(binDir, '..', 'lib/node_modules/okstra-team/node_modules/@okstra/schemas/dist/json-schema/team-state.schema.json');
    const alt = join(binDir, '..', 'lib/node_modules/@okstra/schemas/dist/json-schema/team-state.schema.json');
    const file = existsSync(schemaFile) ? schemaFile : alt;
    expect(JSON.parse(readFileSync(file, 'utf8')).$id).toBe('https://okstra.dev/schemas/team-state.schema.json');
  });
});
