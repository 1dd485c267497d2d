// The packages as a user gets them: published to a real verdaccio, then
// `npm i -g okstra` alone into a fresh prefix gives every tool, and the demo's
// seven steps (tools/demo) run against those installed, bundled bins. Each tool
// also installs on its own, and the libraries install for programmatic use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installInto, publishWorkspace, repoRoot, seedThirdParty, startRegistry, type LocalRegistry } from './local-registry.js';

const TOOLS = ['okstra-convergence', 'okstra-plan-items', 'okstra-worker-liveness', 'okstra-run-audit', 'okstra-team'] as const;
const version = JSON.parse(readFileSync(join(repoRoot, 'apps/okstra/package.json'), 'utf8')).version as string;

let registry: LocalRegistry;
/** bin dir of a prefix where only `okstra` was installed. */
let okstraBin: string;

function run(dir: string, bin: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  // PATH holds only the prefix's bin and node's own dir: nothing from the workspace can leak in.
  const r = spawnSync(join(dir, bin), args, {
    encoding: 'utf8',
    cwd: registry.dir,
    env: { HOME: registry.dir, PATH: `${dir}:${join(process.execPath, '..')}:/usr/bin:/bin`, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every package folder under a prefix's lib/node_modules, nested ones included, as name@version. */
function installedPackages(binDir: string): string[] {
  const out: string[] = [];
  const walk = (nm: string) => {
    if (!existsSync(nm)) return;
    for (const entry of readdirSync(nm)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? readdirSync(join(nm, entry)).map((e) => join(nm, entry, e)) : [join(nm, entry)];
      for (const d of dirs) {
        const m = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { name: string; version: string };
        out.push(`${m.name}@${m.version}`);
        walk(join(d, 'node_modules'));
      }
    }
  };
  walk(join(binDir, '..', 'lib', 'node_modules'));
  return out.sort();
}

beforeAll(async () => {
  registry = await startRegistry();
  await seedThirdParty(registry);
  publishWorkspace(registry);
  okstraBin = installInto(registry, ['okstra@e2e']);
}, 600_000);

afterAll(async () => {
  await registry?.stop();
});

describe('npm i -g okstra (only the umbrella named)', () => {
  it('installs the umbrella and the five tools, each once, and nothing else: the bins carry no dependency tree', () => {
    expect(installedPackages(okstraBin)).toEqual(['okstra', ...TOOLS].map((n) => `${n}@${version}`).sort());
    const size = execFileSync('du', ['-sk', join(okstraBin, '..', 'lib', 'node_modules')], { encoding: 'utf8' });
    process.stdout.write(`full install of okstra: ${size.split('\t')[0]} KiB on disk\n`);
  });

  it('okstra --help lists the tools', () => {
    const r = run(okstraBin, 'okstra', ['--help']);
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

  it.each(TOOLS)('okstra %s --version answers', (tool) => {
    expect(run(okstraBin, 'okstra', [tool.replace(/^okstra-/, ''), '--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('a usage error exits 2 naming the command as typed', () => {
    const r = run(okstraBin, 'okstra', ['worker-state', 'transition', '--worker', 'claude']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra worker-state: required option '--team-state <path>' not specified\n$/);
  });

  it("runs the demo's nine steps against the installed bins: its temp copy deleted, what it made kept in --output, planted lines labelled", () => {
    const output = join(registry.dir, 'demo-output');
    const r = spawnSync(process.execPath, [join(repoRoot, 'tools/demo/run.mjs'), '--output', output], {
      encoding: 'utf8',
      env: { ...process.env, OKSTRA_DEMO_BIN_DIR: okstraBin, PATH: `${okstraBin}:${join(process.execPath, '..')}:/usr/bin:/bin` },
      timeout: 240_000,
    });
    expect(r.stdout, r.stderr).toMatch(/^demo: all 9 steps ran/m);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const workDir = /^okstra demo — working copy of examples\/ in (\S+) /.exec(lines[0]!)?.[1];
    expect(workDir, lines[0]).toBeDefined();
    expect(existsSync(workDir!)).toBe(false);
    expect(readFileSync(join(output, 'demo.log'), 'utf8')).toBe(r.stdout);
    expect(existsSync(join(output, 'convergence', 'convergence-final-error-analysis-001.json'))).toBe(true);
    // The view the demo prints is the kept copy, not one inside the deleted working copy.
    expect(r.stdout).toContain(`view: ${join(output, 'convergence-view.html')}`);
    expect(existsSync(join(output, 'convergence-view.html'))).toBe(true);
    const planted = lines.filter((l) => /OKSTRA_INTERNAL|\[(report-missing|result-missing|worker-not-terminal|citation-not-found)\]/.test(l));
    expect(planted.length).toBeGreaterThanOrEqual(6);
    expect(planted.some((l) => l.includes('[citation-not-found]'))).toBe(true);
    expect(planted.filter((l) => !l.startsWith('  planted: '))).toEqual([]);
  }, 300_000);
});

describe('each package on its own', () => {
  it.each(TOOLS)('npm i -g %s installs that bin alone, with nothing else', (tool) => {
    const bin = installInto(registry, [`${tool}@e2e`]);
    expect(installedPackages(bin)).toEqual([`${tool}@${version}`]);
    expect(run(bin, tool, ['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('a library installs for programmatic use, with its JSON Schemas', () => {
    const project = mkdtempSync(join(registry.dir, 'lib-user-'));
    writeFileSync(join(project, 'package.json'), '{"name":"lib-user","version":"1.0.0","type":"module"}\n');
    const r = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--cache', join(registry.dir, 'npm-cache'), '@okstra/convergence@e2e', '@okstra/schemas@e2e'],
      {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, npm_config_userconfig: registry.npmrc, npm_config_registry: `${registry.url}/` },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const script =
      "import { exampleGroups, createWorkingState } from '@okstra/convergence'; const s = createWorkingState(exampleGroups()); process.stdout.write(`${s.derived.round}\n`);";
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.stdout).toBe('0\n');
    const schema = JSON.parse(readFileSync(join(project, 'node_modules/@okstra/schemas/dist/json-schema/team-state.schema.json'), 'utf8'));
    expect(schema.$id).toBe('https://okstra.dev/schemas/team-state.schema.json');
  });
});
