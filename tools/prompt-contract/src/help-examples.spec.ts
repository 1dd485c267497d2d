// Every `--help` example uses the real layout of examples/sample-project:
// each one is run, as printed, against a fresh copy of it (after the steps it
// presupposes, e.g. seed before plan-round) and must not fail on a missing
// file, a bad flag or a usage error. Through the real umbrella bin.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { createProgram as convergence } from 'okstra-convergence/program';
import { createProgram as planItems } from 'okstra-plan-items/program';
import { createProgram as liveness } from 'okstra-worker-liveness/program';
import { createProgram as runAudit } from 'okstra-run-audit/program';
import { createProgram as team } from 'okstra-team/program';

const bin = new URL('../../../apps/okstra/dist/bin.js', import.meta.url).pathname;
const sample = new URL('../../../examples/sample-project', import.meta.url).pathname;
const S = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/state';
const SEED = `convergence seed --groups ${S}/convergence-groups-error-analysis-001.json --work-state ${S}/convergence-work-error-analysis-001.json --final-state ${S}/convergence-final-error-analysis-001.json --migration-dir ${S}/convergence-migration`;

const W = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/worker-results';
/** Rounds 1 and 2 of the sample (examples/README.md): after them the main queue is terminal. */
const ROUND_1 = [
  `convergence plan-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r1-error-analysis-001.json`,
  `convergence collect-results --plan ${S}/convergence-plan-r1-error-analysis-001.json --mode adversarial --result claude=${W}/claude-reverify-r1-error-analysis-001.md --dispatch claude=completed:520000 --dispatch codex=timeout:1800000 --output ${S}/convergence-results-r1-error-analysis-001.json`,
  `convergence apply-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r1-error-analysis-001.json --results ${S}/convergence-results-r1-error-analysis-001.json`,
];
const ROUND_2 = [
  `convergence plan-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r2-error-analysis-001.json`,
  `convergence collect-results --plan ${S}/convergence-plan-r2-error-analysis-001.json --mode adversarial --result codex=${W}/codex-reverify-r2-error-analysis-001.md --dispatch codex=completed:580000 --output ${S}/convergence-results-r2-error-analysis-001.json`,
  `convergence apply-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r2-error-analysis-001.json --results ${S}/convergence-results-r2-error-analysis-001.json`,
];
/** Examples that must succeed (exit 0) after what they presuppose, as examples/README.md says. */
const MUST_SUCCEED = new Set([
  'seed',
  'plan-round',
  'collect-results',
  'apply-round',
  'collect-critic-gaps',
  'apply-critic-gaps',
  'finalize',
  'validate',
  'render-prompts',
  'view',
]);

/** What an example presupposes, as okstra command lines run first. */
const BEFORE: Record<string, string[]> = {
  'convergence plan-round': [SEED],
  'convergence collect-results': [
    SEED,
    `convergence plan-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r1-error-analysis-001.json`,
  ],
  'convergence apply-round': [
    SEED,
    `convergence plan-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r1-error-analysis-001.json`,
    `convergence collect-results --plan ${S}/convergence-plan-r1-error-analysis-001.json --mode adversarial --result claude=.okstra/tasks/payments/refund-timeout/runs/error-analysis/worker-results/claude-reverify-r1-error-analysis-001.md --dispatch claude=completed:520000 --dispatch codex=timeout:1800000 --output ${S}/convergence-results-r1-error-analysis-001.json`,
  ],
  'error-issue submit': ['error-issue plan --project-root . --output ~/.okstra/error-issue/plan.json'],
  exec: [
    'team dispatch --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json',
  ],
  'convergence apply-critic-gaps': [SEED, ...ROUND_1, ...ROUND_2],
  'convergence collect-critic-gaps': [SEED, ...ROUND_1, ...ROUND_2],
  'convergence finalize': [SEED, ...ROUND_1, ...ROUND_2],
  'convergence validate': [SEED],
  'convergence render-prompts': [SEED, ROUND_1[0]!],
  'convergence view': [SEED, ...ROUND_1],
};

/** Each leaf command's example line (`  okstra …` after "Example:"). */
function examples(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const programs = {
    'okstra-convergence': convergence,
    'okstra-plan-items': planItems,
    'okstra-worker-liveness': liveness,
    'okstra-run-audit': runAudit,
    'okstra-team': team,
  };
  for (const [name, create] of Object.entries(programs)) {
    const io = memoryIo();
    const program = create({ io, name, version: '0', exitCode: 0 } as never) as unknown as { commands: unknown[]; outputHelp(): void };
    const walk = (c: { commands: unknown[]; name(): string; helpInformation(): string; parent?: unknown }, path: string[]) => {
      if (c.commands.length === 0) {
        const text = helpOf(c as unknown as Parameters<typeof helpOf>[0]);
        const m = /Example:\n {2}(okstra [^\n]+)/.exec(text);
        if (m) out.push([`${name} ${path.join(' ')}`.trim(), m[1]!]);
      }
      for (const s of c.commands as Array<typeof c>) walk(s, [...path, s.name()]);
    };
    walk(program as never, []);
  }
  return out;
}

function helpOf(c: { outputHelp(): void; configureOutput(o: object): unknown }): string {
  let text = '';
  c.configureOutput({ writeOut: (s: string) => (text += s), writeErr: () => undefined });
  c.outputHelp();
  return text;
}

/** Split an example line into argv words (single quotes only, as the examples use; `~/` is HOME, as a shell expands it). */
function words(line: string, home: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!.replace(/^~\//, `${home}/`));
}

const cases = examples();

describe('--help examples', () => {
  it('there is one for every sub-command', () => {
    expect(cases.length).toBeGreaterThanOrEqual(22);
  });

  it.each(cases)('%s: `%s` runs against a copy of examples/sample-project', (key, line) => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-example-'));
    try {
      const root = join(base, 'sample-project');
      cpSync(sample, root, { recursive: true });
      // Provider CLIs the sample's manifest names, as stubs that read the prompt and succeed.
      const stubs = join(base, 'stub-bin');
      mkdirSync(stubs);
      for (const cli of ['claude', 'codex', 'grok']) {
        writeFileSync(join(stubs, cli), '#!/bin/sh\ncat > /dev/null\n');
        chmodSync(join(stubs, cli), 0o755);
      }
      const env = { HOME: base, PATH: `${stubs}:/usr/bin:/bin`, OKSTRA_TMUX_SOCKET: `okstra-example-${process.pid}`, OKSTRA_TEAM_POLL_MS: '100' };
      const run = (argv: string[]) => spawnSync(process.execPath, [bin, ...argv], { cwd: root, encoding: 'utf8', env, timeout: 30_000 });
      const sub = key.replace(/^okstra-[a-z-]+ /, '').replace(/^okstra-worker-liveness$/, 'worker-liveness');
      for (const before of BEFORE[`convergence ${sub}`] ?? BEFORE[sub] ?? []) {
        const r = run(words(before, base));
        expect(r.status, `${before}: ${r.stderr}`).toBe(0);
      }
      const argv = words(line, base).slice(1);
      const r = run(argv);
      if (key.startsWith('okstra-convergence ') && MUST_SUCCEED.has(sub)) expect(r.status, `${line}: ${r.stderr}`).toBe(0);
      expect(r.status === 0 || r.status === 1 || r.status === 2, `${line}: exit ${r.status}: ${r.stderr}`).toBe(true);
      if (r.status === 2) {
        // A judged refusal of the sample's data is fine; the example's own words may not be wrong.
        expect(r.stderr, line).not.toMatch(/file not found|unknown option|required option|unknown command|too many arguments|is not a directory|no such/i);
      }
    } finally {
      spawnSync('tmux', ['-L', `okstra-example-${process.pid}`, 'kill-server'], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    }
  });
});
