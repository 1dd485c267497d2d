// Every command with its file arguments, on a prepared scenario: the table the
// special-file and malformed-input matrices walk ("every file argument of every command").
import { join } from 'node:path';
import { promptPath, teamJobPath } from '@okstra/paths';
import { EA, type BinName, type Scenario } from './support.js';

/** One file argument: its default (valid) path, whether the command reads it as JSON / Markdown, or wants a directory. */
export interface FileArg {
  flag: string;
  path: (s: Scenario) => string;
  /** `json` / `md`: an input the malformed matrix corrupts; `dir`: a directory argument; `out`: an output. */
  role: 'json' | 'md' | 'dir' | 'out';
  /** `--result claude=<path>` style: the value is `prefix + path`. */
  prefix?: string;
}

export interface Command {
  name: string;
  bin: BinName;
  /** Arguments before the file flags (the sub-command words) and after them (other flags). */
  head: string[];
  tail?: string[];
  files: FileArg[];
  env?: (s: Scenario) => NodeJS.ProcessEnv;
}

const inProject = (s: Scenario, rel: string) => join(s.tmp, rel);

export const COMMANDS: Command[] = [
  {
    name: 'convergence seed',
    bin: 'conv',
    head: ['seed'],
    files: [
      { flag: '--groups', path: (s) => s.groups, role: 'json' },
      { flag: '--work-state', path: (s) => s.work, role: 'json' },
      { flag: '--final-state', path: (s) => s.final, role: 'out' },
      { flag: '--migration-dir', path: (s) => s.mig, role: 'dir' },
    ],
  },
  {
    name: 'convergence plan-round',
    bin: 'conv',
    head: ['plan-round'],
    files: [
      { flag: '--work-state', path: (s) => s.work, role: 'json' },
      { flag: '--plan', path: (s) => s.plan1, role: 'out' },
    ],
  },
  {
    name: 'convergence collect-results',
    bin: 'conv',
    head: ['collect-results', '--mode', 'adversarial', '--dispatch', 'claude=completed:520000', '--dispatch', 'codex=timeout:1800000'],
    files: [
      { flag: '--plan', path: (s) => s.plan1, role: 'json' },
      { flag: '--result', path: (s) => s.claudeResult, role: 'md', prefix: 'claude=' },
      { flag: '--output', path: (s) => s.results1, role: 'out' },
    ],
  },
  {
    name: 'convergence apply-round',
    bin: 'conv',
    head: ['apply-round'],
    files: [
      { flag: '--work-state', path: (s) => s.work, role: 'json' },
      { flag: '--plan', path: (s) => s.plan1, role: 'json' },
      { flag: '--results', path: (s) => s.results1, role: 'json' },
    ],
  },
  {
    name: 'convergence apply-critic-gaps',
    bin: 'conv',
    head: ['apply-critic-gaps'],
    files: [
      { flag: '--work-state', path: (s) => s.work, role: 'json' },
      { flag: '--results', path: (s) => s.coverage, role: 'json' },
    ],
  },
  {
    name: 'convergence finalize',
    bin: 'conv',
    head: ['finalize'],
    files: [
      { flag: '--work-state', path: (s) => s.work, role: 'json' },
      { flag: '--output', path: (s) => s.final, role: 'out' },
    ],
  },
  { name: 'convergence validate', bin: 'conv', head: ['validate', '--kind', 'working'], files: [{ flag: '--state', path: (s) => s.work, role: 'json' }] },
  {
    name: 'plan-items extract',
    bin: 'plan',
    head: ['extract'],
    files: [
      { flag: '--data', path: (s) => s.data, role: 'json' },
      { flag: '--output', path: (s) => s.items, role: 'out' },
    ],
  },
  {
    name: 'plan-items validate',
    bin: 'plan',
    head: ['validate'],
    files: [
      { flag: '--data', path: (s) => s.data, role: 'json' },
      { flag: '--items', path: (s) => s.items, role: 'json' },
    ],
  },
  {
    name: 'plan-items collect-verdicts',
    bin: 'plan',
    head: ['collect-verdicts'],
    files: [
      { flag: '--result', path: (s) => s.planVerifyResult, role: 'md', prefix: 'claude=' },
      { flag: '--items', path: (s) => s.items, role: 'json' },
      { flag: '--output', path: (s) => s.verdicts, role: 'out' },
    ],
  },
  {
    name: 'plan-items apply-verdicts',
    bin: 'plan',
    head: ['apply-verdicts'],
    files: [
      { flag: '--data', path: (s) => s.data, role: 'json' },
      { flag: '--verdicts', path: (s) => s.verdicts, role: 'json' },
    ],
  },
  {
    name: 'plan-items incremental-scope',
    bin: 'plan',
    head: ['incremental-scope', '--preview'],
    files: [{ flag: '--prev-data', path: (s) => s.data, role: 'json' }],
  },
  { name: 'worker-liveness', bin: 'live', head: [], tail: ['--worker', 'claude'], files: [{ flag: '--team-state', path: (s) => s.teamState, role: 'json' }] },
  { name: 'run-audit', bin: 'audit', head: ['run-audit', '--json'], files: [{ flag: '--project-root', path: (s) => s.project, role: 'dir' }] },
  {
    name: 'worker-audit-check',
    bin: 'audit',
    head: ['worker-audit-check', '--task-type', 'error-analysis', '--seq', '001'],
    files: [{ flag: '--run-dir', path: (s) => s.ea, role: 'dir' }],
  },
  {
    name: 'error-issue plan',
    bin: 'audit',
    head: ['error-issue', 'plan', '--repo', 'acme/widgets'],
    files: [
      { flag: '--project-root', path: (s) => s.project, role: 'dir' },
      { flag: '--output', path: (s) => inProject(s, 'error-issue-plan.json'), role: 'out' },
    ],
    env: (s) => ({ HOME: s.tmp, PATH: '/usr/bin:/bin' }),
  },
  {
    name: 'error-issue submit',
    bin: 'audit',
    head: ['error-issue', 'submit', '--approve', 'all'],
    files: [{ flag: '--plan', path: (s) => inProject(s, 'error-issue-plan.json'), role: 'json' }],
    env: (s) => ({ HOME: s.tmp, PATH: '/usr/bin:/bin' }),
  },
  {
    name: 'team dispatch --dry-run',
    bin: 'team',
    head: ['dispatch', '--dry-run'],
    files: [
      { flag: '--project-root', path: (s) => s.project, role: 'dir' },
      { flag: '--run-manifest', path: (s) => s.manifest, role: 'json' },
    ],
    env: (s) => ({ HOME: s.tmp }),
  },
  {
    name: 'team await',
    bin: 'team',
    head: ['await', '--deadline', '1', '--json'],
    files: [
      { flag: '--project-root', path: (s) => s.project, role: 'dir' },
      { flag: '--run-manifest', path: (s) => s.manifest, role: 'json' },
    ],
    env: (s) => ({ HOME: s.tmp, OKSTRA_TMUX_SOCKET: join(s.tmp, 'no-tmux') }),
  },
  {
    name: 'team teardown --dry-run',
    bin: 'team',
    head: ['teardown', '--dry-run', '--json'],
    files: [
      { flag: '--project-root', path: (s) => s.project, role: 'dir' },
      { flag: '--run-manifest', path: (s) => s.manifest, role: 'json' },
    ],
    env: (s) => ({ HOME: s.tmp, OKSTRA_TMUX_SOCKET: join(s.tmp, 'no-tmux') }),
  },
  {
    name: 'team exec',
    bin: 'team',
    head: ['exec'],
    files: [{ flag: '--job', path: (s) => teamJobPath(s.ea, 'initial', 'claude', EA), role: 'json' }],
  },
  {
    name: 'team worker-state transition',
    bin: 'team',
    head: ['worker-state', 'transition', '--worker', 'report-writer', '--status', 'in-progress'],
    files: [
      { flag: '--team-state', path: (s) => s.teamState, role: 'json' },
      { flag: '--prompt', path: (s) => promptPath(s.ea, 'report-writer', EA), role: 'out' },
    ],
  },
];

/** The argv of `cmd` with every file argument at its default except `override` (flag → value). */
export function argvOf(cmd: Command, s: Scenario, override: Partial<Record<string, string>> = {}): string[] {
  const out = [...cmd.head];
  for (const f of cmd.files) out.push(f.flag, (f.prefix ?? '') + (override[f.flag] ?? f.path(s)));
  return [...out, ...(cmd.tail ?? [])];
}
