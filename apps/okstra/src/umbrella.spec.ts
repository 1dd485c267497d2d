import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { runBin } from '@okstra/core/test-support';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from './routes.js';
import { ENVIRONMENT } from './environment.js';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const appBin = (name: string) => new URL(`../../${name}/dist/bin.js`, import.meta.url).pathname;

function okstra(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}) {
  const { code, stdout, stderr } = runBin(bin, args, { env: options.env ?? process.env, input: options.input });
  return { code, stdout, stderr };
}

describe('okstra umbrella (real bin)', () => {
  it('--help lists every command word with one line each', () => {
    const r = okstra(['--help']);
    expect(r.code).toBe(0);
    for (const route of ROUTES) expect(r.stdout).toMatch(new RegExp(`^  ${route.word} +\\S.*\\(${route.pkg}\\)$`, 'm'));
  });

  it('no word: usage on stderr, exit 2', () => {
    const r = okstra([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Usage: okstra <command>');
  });

  it("an unknown word exits 2 naming every known command: the tools, sample and the umbrella's own", () => {
    const r = okstra(['frobnicate'], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    const known = [...ROUTES.map((x) => x.word), 'sample', 'install', 'completion'];
    expect(r.stderr).toBe(`okstra: unknown command 'frobnicate' (known: ${known.join(', ')}; see 'okstra --help')\n`);
  });

  it('okstra help help is the umbrella help, exit 0; okstra help install is its --help', () => {
    expect(okstra(['help', 'help'])).toEqual(okstra(['--help']));
    const install = okstra(['help', 'install']);
    expect(install.code).toBe(0);
    expect(install.stdout).toMatch(/^Usage: okstra install \[options\]/);
  });

  it('an unknown word or help topic is shown with its control characters escaped, as every error line (docs/conventions.md)', () => {
    const env = { ...process.env, PATH: '/nonexistent' };
    const word = 'fro\u001b[2Jb\nx';
    const unknown = okstra([word], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^okstra: unknown command 'fro\\x1b\[2Jb x' \(known: /);
    const help = okstra(['help', word], { env });
    expect(help.code).toBe(2);
    expect(help.stderr).toMatch(/^okstra: no help for 'fro\\x1b\[2Jb x' \(topics: /);
    for (const r of [unknown, help]) expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it.each(['preflight', 'render-bundle'])('a word of the okstra runtime (%s) says so instead of "unknown command", exit 2', (word) => {
    const r = okstra([word, '--json'], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`okstra: '${word}' is a step of the okstra runtime, not of these microtools, and the runtime is not installed here\n`);
  });

  it('prints its version', () => {
    expect(okstra(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+.*\n$/);
  });

  it.each(ROUTES.map((r) => [r.word, r.pkg, r.prefix] as const))('`okstra %s --help` is `%s %s --help`, naming the command as typed', (word, pkg, prefix) => {
    const via = okstra([word, '--help']);
    const direct = spawnSync(process.execPath, [appBin(pkg), ...prefix, '--help'], { encoding: 'utf8' });
    expect(via.code).toBe(0);
    // Usage lines read as typed: `okstra convergence seed`, `okstra error-issue plan`.
    expect(via.stdout).toBe(direct.stdout.split(`Usage: ${pkg} `).join(prefix.length ? 'Usage: okstra ' : `Usage: okstra ${word} `));
    expect(okstra(['help', word])).toEqual(via);
  });

  it('passes usage errors and their exit code through, naming the command as typed', () => {
    const via = okstra(['convergence', 'seed', '--bogus']);
    const direct = spawnSync(process.execPath, [appBin('okstra-convergence'), 'seed', '--bogus'], { encoding: 'utf8' });
    expect(via.code).toBe(2);
    expect(direct.stderr).toMatch(/^okstra-convergence: \S/);
    expect(via.stderr).toBe(direct.stderr.replace(/^okstra-convergence:/, 'okstra convergence:'));
  });

  it('progress lines through the umbrella name the command as typed too: `okstra convergence:`, as its error lines do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'okstra-umbrella-note-'));
    const [groups, work, plan] = ['groups.json', 'work.json', 'plan.json'].map((f) => join(dir, f));
    writeFileSync(groups!, okstra(['convergence', 'example', '--kind', 'groups']).stdout);
    const seed = okstra([
      'convergence',
      'seed',
      '--groups',
      groups!,
      '--work-state',
      work!,
      '--final-state',
      join(dir, 'final.json'),
      '--migration-dir',
      join(dir, 'mig'),
    ]);
    expect(seed.code).toBe(0);
    const r = okstra(['convergence', 'plan-round', '--work-state', work!, '--plan', plan!]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^okstra convergence: round 1: \S/);
    expect(r.stderr).not.toContain('okstra-convergence');
    rmSync(dir, { recursive: true, force: true });
  });

  it('an input error through a routed word names that word: `okstra error-issue:`, not okstra-run-audit', () => {
    const r = okstra(['error-issue', 'submit', '--plan', '/nonexistent/plan.json', '--approve', 'all']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra error-issue: \/nonexistent\/plan\.json: /);
  });

  it.each([
    ['convergnce', 'convergence'],
    ['tema', 'team'],
    ['run-adit', 'run-audit'],
    ['worker-livenes', 'worker-liveness'],
  ])('a typo (%s) names the closest tool (%s), exit 2', (typo, tool) => {
    const r = okstra([typo], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^okstra: unknown command '${typo}' \\(did you mean '${tool}'\\?\\) \\(known: `));
  });

  it.each([
    ['--vesion', '--version'],
    ['--helpp', '--help'],
  ])('a mistyped umbrella option (%s) is an unknown option naming the closest one (%s), exit 2', (typo, option) => {
    const r = okstra([typo], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^okstra: unknown option '${typo}' \\(did you mean '${option}'\\?\\) \\(known: `));
  });

  it('a word far from every tool suggests nothing', () => {
    expect(okstra(['frobnicate'], { env: { ...process.env, PATH: '/nonexistent' } }).stderr).not.toContain('did you mean');
  });

  it('okstra help <unknown> exits 2 naming the topics; okstra help alone is the umbrella help', () => {
    const r = okstra(['help', 'tem']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra: no help for 'tem' \(did you mean 'team'\?\) \(topics: convergence, .*environment\)\n$/);
    expect(okstra(['help'])).toEqual(okstra(['--help']));
  });

  it('okstra help environment lists every variable of docs/environment.md', () => {
    const r = okstra(['help', 'environment']);
    expect(r.code).toBe(0);
    const doc = readFileSync(new URL('../../../docs/environment.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
    expect(documented.length).toBeGreaterThan(10);
    for (const name of documented) expect(r.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(documented).toEqual(ENVIRONMENT.map((v) => v.name));
  });

  it.each([
    ['SIGABRT', 134],
    ['SIGSEGV', 139],
    ['SIGUSR1', 138],
    ['SIGTERM', 143],
  ])('a plug-in killed by %s makes okstra exit %i (128 + its number)', (signal, code) => {
    const dir = mkdtempSync(join(tmpdir(), 'okstra-plugin-'));
    writeFileSync(join(dir, 'okstra-crash'), `#!/bin/sh\nkill -${signal.slice(3)} $$\n`);
    chmodSync(join(dir, 'okstra-crash'), 0o755);
    expect(okstra(['crash'], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` } }).code).toBe(code);
  });

  it('runs an okstra-<word> plug-in from PATH with argv, stdin, stdout, stderr and exit code passed through', () => {
    const dir = mkdtempSync(join(tmpdir(), 'okstra-plugin-'));
    const plugin = join(dir, 'okstra-hello');
    writeFileSync(plugin, `#!/bin/sh\nprintf 'args:'; for a in "$@"; do printf ' [%s]' "$a"; done; printf '\\n'; cat; echo 'to stderr' >&2; exit 3\n`);
    chmodSync(plugin, 0o755);
    const r = okstra(['hello', 'a b', '$(x);'], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, input: 'from stdin\n' });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('args: [a b] [$(x);]\nfrom stdin\n');
    expect(r.stderr).toBe('to stderr\n');
  });
});
