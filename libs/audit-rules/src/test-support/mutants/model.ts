// The run model the mutation generator edits: one task's files in memory
// (paths relative to the task root, task key and task path as placeholders),
// so a mutation is a pure edit and every mutant is written once. Not part of the build.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Placeholders replaced by each written task's own key and project-relative root. */
export const KEY = '@@TASK_KEY@@';
export const ROOT = '@@TASK_ROOT@@';

/** A file text starting with this marker is written as the Latin-1 bytes of the rest (an answer that is not UTF-8). */
export const LATIN1 = '\u0000latin1\u0000';

/** Which run of the task a mutation targets (and a kill is looked for in). */
export interface MainRun {
  /** Run directory relative to the task root (`runs/error-analysis`). */
  dir: string;
  taskType: string;
  seq: string;
}

/** One task's files, with path helpers for its main run. */
export class RunModel {
  readonly files: Map<string, string>;
  /** The task group the task is written under (a legal variant may name it in Unicode). */
  taskGroup = 'gen';
  /** Appended to the case id to make the task id (a legal variant may add Unicode). */
  taskIdSuffix = '';
  constructor(
    readonly main: MainRun,
    files: Map<string, string>,
  ) {
    this.files = new Map(files);
  }

  clone(): RunModel {
    const copy = new RunModel(this.main, this.files);
    copy.taskGroup = this.taskGroup;
    copy.taskIdSuffix = this.taskIdSuffix;
    return copy;
  }

  private get suffix(): string {
    return `${this.main.taskType}-${this.main.seq}`;
  }
  /** Paths of the main run, relative to the task root. */
  get p() {
    const d = this.main.dir;
    const s = this.suffix;
    return {
      manifest: `${d}/manifests/run-manifest-${s}.json`,
      teamState: `${d}/state/team-state-${s}.json`,
      report: `${d}/reports/final-report-${s}.md`,
      data: `${d}/reports/final-report-${s}.data.json`,
      prompt: (w: string) => `${d}/prompts/${w}-prompt-${s}.md`,
      log: (w: string) => `${d}/prompts/${w}-prompt-${s}.log`,
      status: (w: string) => `${d}/prompts/${w}-prompt-${s}.status.json`,
      result: (w: string) => `${d}/worker-results/${w}-${s}.md`,
      sidecar: (w: string) => `${d}/worker-results/${w}-${s}.audit.md`,
      reverify: (w: string, n: number) => `${d}/worker-results/${w}-reverify-r${n}-${s}.md`,
      planVerify: (w: string) => `${d}/worker-results/${w}-plan-verify-${s}.md`,
      groups: `${d}/state/convergence-groups-${s}.json`,
      work: `${d}/state/convergence-work-${s}.json`,
      final: `${d}/state/convergence-final-${s}.json`,
      roundPlan: (n: number) => `${d}/state/convergence-plan-r${n}-${s}.json`,
      roundResults: (n: number) => `${d}/state/convergence-results-r${n}-${s}.json`,
      planItems: `${d}/state/plan-items-${s}.json`,
      planVerdicts: `${d}/state/plan-verdicts-${s}.json`,
      rwJobs: `${d}/state/report-writer-jobs-${s}.json`,
      carry: (n: number) => `runs/implementation/carry/stage-${n}.json`,
      /** A recorded (project-relative) form of a task-relative path. */
      recorded: (rel: string) => `${ROOT}/${rel}`,
    };
  }

  has(rel: string): boolean {
    return this.files.has(rel);
  }
  text(rel: string): string {
    const t = this.files.get(rel);
    if (t === undefined) throw new Error(`mutant model: no file ${rel}`);
    return t;
  }
  set(rel: string, text: string): void {
    this.files.set(rel, text);
  }
  del(rel: string): void {
    this.files.delete(rel);
  }
  json<T = any>(rel: string): T {
    return JSON.parse(this.text(rel)) as T;
  }
  setJson(rel: string, value: unknown): void {
    this.set(rel, JSON.stringify(value, null, 2) + '\n');
  }
  edit<T = any>(rel: string, fn: (value: T) => void): void {
    const v = this.json<T>(rel);
    fn(v);
    this.setJson(rel, v);
  }
  /** Files of the main run whose task-relative path matches `re`. */
  matching(re: RegExp): string[] {
    return [...this.files.keys()].filter((k) => k.startsWith(this.main.dir + '/') && re.test(k)).sort();
  }

  /** The main run's manifest, `workerDispatches` defaulted to [] as the schema does. */
  get manifest(): any {
    const m = this.json(this.p.manifest);
    m.workerDispatches ??= [];
    m.workerAssignments ??= [];
    return m;
  }
  /** The team-state rows (empty when there is no team-state). */
  get rows(): any[] {
    return this.has(this.p.teamState) ? (this.json(this.p.teamState).workers as any[]) : [];
  }
  editManifest(fn: (m: any) => void): void {
    this.edit(this.p.manifest, (m: any) => {
      m.workerDispatches ??= [];
      fn(m);
    });
  }
  editRows(fn: (rows: any[]) => void): void {
    this.edit(this.p.teamState, (s: any) => fn(s.workers));
  }
  /** The first row matching `pred`, edited in place; false when none matches. */
  editRow(pred: (r: any) => boolean, fn: (r: any) => void): boolean {
    let hit = false;
    if (!this.has(this.p.teamState)) return false;
    this.editRows((rows) => {
      const r = rows.find(pred);
      if (r) {
        fn(r);
        hit = true;
      }
    });
    return hit;
  }
  /** Task-relative path of a recorded (project-relative, placeholder-rooted) path, or null. */
  local(recorded: string | null | undefined): string | null {
    if (!recorded || !recorded.startsWith(`${ROOT}/`)) return null;
    return recorded.slice(ROOT.length + 1);
  }
}

/**
 * Read a task directory into a file map: `from` task root (absolute), its task key and its
 * project-relative root replaced by the placeholders.
 */
export function readTask(abs: string, taskKey: string, taskRootRel: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(relative(abs, p), readFileSync(p, 'utf8').replaceAll(taskRootRel, ROOT).replaceAll(taskKey, KEY));
    }
  };
  walk(abs);
  return files;
}
