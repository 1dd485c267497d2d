// Write generated runs into one project (one task per case) and audit it. Not part of the build.
import { makeTempProject, type TempProject } from '@okstra/core/test-support';
import { runAudit } from '../../audit-project.js';
import { writeFileSync } from 'node:fs';
import { KEY, LATIN1, ROOT, type RunModel } from './model.js';

/** One generated case: an id (a safe path segment) and its task's files. */
export interface GeneratedCase {
  id: string;
  model: RunModel;
}

/** The violations of each case's main run (`invariant: message`), keyed by case id, and the project. */
export interface AuditedCases {
  project: TempProject;
  byCase: Map<string, string[]>;
  /** The fact edges each case's main run left unchecked (`<edge>` or `<edge>:<key>`). */
  uncheckedByCase: Map<string, string[]>;
}

/** Write every case as task `<group>/<id>` (`gen/<case id>` unless a variant renames it) of a fresh project (project id `gen`) and audit it in-process. */
export async function auditCases(cases: readonly GeneratedCase[]): Promise<AuditedCases> {
  const project = makeTempProject('okstra-mutants-');
  project.write('.okstra/project.json', { schemaVersion: '1.0', projectId: 'gen' });
  writeCases(project, cases);
  const report = await runAudit(project.root);
  const byCase = new Map<string, string[]>(cases.map((c) => [c.id, []]));
  const mainDir = new Map(cases.map((c) => [c.id, `${taskRoot(c)}/${c.model.main.dir}`]));
  const caseOf = new Map(cases.map((c) => [taskKeyOf(c), c.id]));
  for (const v of report.violations) {
    const id = caseOf.get(v.taskKey) ?? v.taskKey.split(':')[2]!;
    // A kill counts only in the mutated run; a violation elsewhere in the task is a false alarm of the healthy part.
    const where = v.runDir === mainDir.get(id) ? '' : `@${v.runDir.split('/').slice(4).join('/')} `;
    byCase.get(id)?.push(`${where}${v.invariant}: ${v.message}`);
  }
  const uncheckedByCase = new Map<string, string[]>(cases.map((c) => [c.id, []]));
  for (const u of report.unchecked ?? []) {
    const id = caseOf.get(u.taskKey) ?? u.taskKey.split(':')[2]!;
    if (u.runDir === mainDir.get(id)) uncheckedByCase.get(id)?.push(u.key ? `${u.edge}:${u.key}` : u.edge);
  }
  return { project, byCase, uncheckedByCase };
}

/** Write the cases' files (placeholders replaced) into `project`. */
export function writeCases(project: TempProject, cases: readonly GeneratedCase[]): void {
  for (const c of cases) {
    const root = taskRoot(c);
    const key = taskKeyOf(c);
    const files = new Map(c.model.files);
    if (!files.has('task-manifest.json')) files.set('task-manifest.json', JSON.stringify({ schemaVersion: '1.0', taskKey: KEY }));
    for (const [rel, text] of files) {
      const body =
        rel === 'task-manifest.json'
          ? JSON.stringify({ schemaVersion: '1.0', taskKey: key, projectId: 'gen', taskGroup: c.model.taskGroup, taskId: c.id + c.model.taskIdSuffix }) + '\n'
          : text;
      const out = body.replaceAll(ROOT, root).replaceAll(KEY, key);
      if (!out.startsWith(LATIN1)) project.write(`${root}/${rel}`, out);
      else writeFileSync(project.write(`${root}/${rel}`, ''), Buffer.from(out.slice(LATIN1.length), 'latin1'));
    }
  }
}

const taskRoot = (c: GeneratedCase) => `.okstra/tasks/${c.model.taskGroup}/${c.id}${c.model.taskIdSuffix}`;
const taskKeyOf = (c: GeneratedCase) => `gen:${c.model.taskGroup}:${c.id}${c.model.taskIdSuffix}`;
