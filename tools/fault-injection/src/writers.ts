// The writer commands the SIGKILL fuzz and the disk-full matrix attack: each with
// the scenario it runs on, its argv and the files it writes.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { argvOf, COMMANDS } from './commands.js';
import { collectArgs, lifecycle, prepare, scenario, type BinName, type Scenario } from './support.js';

/** One writer: the scenario template it needs, its argv, its outputs, a setup that makes it write. */
export interface Writer {
  name: string;
  template: 'prepared' | 'lifecycle';
  bin: BinName;
  argv: (s: Scenario) => string[];
  outputs: (s: Scenario) => string[];
  setup?: (s: Scenario) => void;
  /** States across `outputs` a kill may leave (each file is checked on its own too). */
  crossCheck?: (s: Scenario, files: Array<string | null>, old: Array<string | null>) => string | null;
}

/** The two scenarios the writers run on, made once per spec (`beforeAll`): a prepared sample and one after its lifecycle. */
export async function writerTemplates(): Promise<Record<Writer['template'], Scenario>> {
  const prepared = scenario();
  await prepare(prepared);
  const full = scenario();
  await lifecycle(full);
  return { prepared, lifecycle: full };
}

const cmd = (name: string) => COMMANDS.find((c) => c.name === name)!;
export const seedArgs = (s: Scenario) => ['seed', '--groups', s.groups, '--work-state', s.work, '--final-state', s.final, '--migration-dir', s.mig];

export const WRITERS: Writer[] = [
  { name: 'seed (create)', template: 'prepared', bin: 'conv', argv: seedArgs, outputs: (s) => [s.work], setup: (s) => rmSync(s.work) },
  {
    name: 'plan-round',
    template: 'prepared',
    bin: 'conv',
    argv: (s) => argvOf(cmd('convergence plan-round'), s),
    outputs: (s) => [s.plan1],
    setup: (s) => rmSync(s.plan1),
  },
  { name: 'collect-results', template: 'prepared', bin: 'conv', argv: (s) => collectArgs(s), outputs: (s) => [s.results1], setup: (s) => rmSync(s.results1) },
  { name: 'apply-round', template: 'prepared', bin: 'conv', argv: (s) => argvOf(cmd('convergence apply-round'), s), outputs: (s) => [s.work] },
  {
    name: 'finalize',
    template: 'lifecycle',
    bin: 'conv',
    argv: (s) => argvOf(cmd('convergence finalize'), s),
    outputs: (s) => [s.final],
    setup: (s) => rmSync(s.final),
  },
  {
    name: 'plan-items extract',
    template: 'prepared',
    bin: 'plan',
    argv: (s) => argvOf(cmd('plan-items extract'), s),
    outputs: (s) => [s.items],
    setup: (s) => rmSync(s.items),
  },
  {
    name: 'plan-items collect-verdicts',
    template: 'prepared',
    bin: 'plan',
    argv: (s) => argvOf(cmd('plan-items collect-verdicts'), s),
    outputs: (s) => [s.verdicts],
    setup: (s) => rmSync(s.verdicts),
  },
  { name: 'plan-items apply-verdicts', template: 'prepared', bin: 'plan', argv: (s) => argvOf(cmd('plan-items apply-verdicts'), s), outputs: (s) => [s.data] },
  {
    name: 'worker-state transition',
    template: 'prepared',
    bin: 'team',
    // A terminal transition of an in-progress row: a rerun after it landed keeps the row (a second in-progress would be a new attempt).
    argv: (s) => ['worker-state', 'transition', '--team-state', s.teamState, '--worker', 'report-writer', '--status', 'completed'],
    outputs: (s) => [s.teamState],
    setup: (s) => {
      const t = JSON.parse(readFileSync(s.teamState, 'utf8'));
      const row = t.workers.find((w: { workerId: string }) => w.workerId === 'report-writer');
      Object.assign(row, { status: 'in-progress', startedAt: '2026-11-30T10:00:00.000Z', attempt: 1 });
      writeFileSync(s.teamState, JSON.stringify(t, null, 2));
    },
  },
];

export const RESTART: Writer = {
  name: 'seed --restart-from-round0 (work + final)',
  template: 'lifecycle',
  bin: 'conv',
  argv: (s) => [...seedArgs(s), '--restart-from-round0'],
  outputs: (s) => [s.work, s.final],
  // Never a round-0 working state beside the old final state (a plain seed would say `reused`).
  crossCheck: (_s, [work, final], [oldWork]) => (final !== null && work !== oldWork ? 'round-0 working state beside the old final state' : null),
};
