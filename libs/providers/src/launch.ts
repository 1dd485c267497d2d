import { dirname, sep } from 'node:path';
import { isInside, wrapperLastMessagePath } from '@okstra/paths';
import { capabilityOfRole } from './roles.js';

/** Values the argv placeholders take (absolute paths; docs/providers.md "Placeholders"). */
export interface LaunchValues {
  model: string;
  promptPath: string;
  resultPath: string;
  projectRoot: string;
  /** The one directory the worker may write in (see {@link writeRootOf}). */
  writeRoot: string;
  /** Where a codex-style CLI writes its last message for the wrapper (`wrapperLastMessagePath`). */
  lastMessagePath: string;
}

/** What a job says about its paths and role; every path absolute and inside `projectRoot`. */
export interface JobPaths {
  model: string;
  role: string;
  projectRoot: string;
  promptPath: string;
  resultPath: string;
  completionPaths: readonly string[];
  auditSidecarPath: string | null;
}

/**
 * The directory a worker may write in (docs/providers.md "What a worker may
 * write"; issue 13): an implementation role edits the project, so the project
 * root; every other role (analyser, critic, reverify, report writer) writes
 * only what it delivers — its result file, completion paths and audit
 * sidecar — so the deepest directory holding all of them (for the libs/paths
 * layout, `<run-dir>/worker-results`). Never above the project root.
 */
export function writeRootOf(job: Pick<JobPaths, 'role' | 'projectRoot' | 'resultPath' | 'completionPaths' | 'auditSidecarPath'>): string {
  if (capabilityOfRole(job.role) === 'implementation') return job.projectRoot;
  const dirs = [job.resultPath, ...job.completionPaths, ...(job.auditSidecarPath ? [job.auditSidecarPath] : [])].map((p) => dirname(p));
  let common = dirs[0]!.split(sep);
  for (const d of dirs.slice(1)) {
    const parts = d.split(sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  const dir = common.join(sep) || sep;
  return isInside(job.projectRoot, dir) ? dir : job.projectRoot;
}

/** The placeholder values of one job's launch ({@link LaunchValues}). */
export function launchValuesOf(job: JobPaths): LaunchValues {
  return {
    model: job.model,
    promptPath: job.promptPath,
    resultPath: job.resultPath,
    projectRoot: job.projectRoot,
    writeRoot: writeRootOf(job),
    lastMessagePath: wrapperLastMessagePath(job.promptPath),
  };
}
