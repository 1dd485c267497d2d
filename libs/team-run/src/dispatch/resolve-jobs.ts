import { existsSync, statSync } from 'node:fs';
import { InputError } from '@okstra/core';
import { auditSidecarPath, promptPath, resolveInsideRoot, runDirOfManifest, workerResultPath } from '@okstra/paths';
import { jobsFileArtifact, type Job } from '@okstra/schemas/jobs-file';
import type { Assignment, RunManifest } from '@okstra/schemas/run-manifest';
import { isWriterLike, workerRoute } from '@okstra/schemas/worker-route';
import { checkRegularFile, readArtifact } from '@okstra/state-file';
import { INITIAL_DISPATCH_KIND } from '@okstra/schemas/vocabulary';

/** A job with every path resolved (absolute) and checked to stay inside the project root. */
export interface ResolvedJob {
  workerId: string;
  provider: string;
  role: string;
  model: string;
  promptPath: string;
  resultPath: string;
  workerResultPath: string;
  completionPaths: string[];
  /** The audit sidecar the worker heartbeats into, when it has one (livenessMode `audit-heartbeat`). */
  auditSidecarPath: string | null;
  /** Where the job came from, for error messages (`jobs[2]` or `workerAssignments[1]`). */
  where: string;
}

/** The jobs of one dispatch: their `dispatchKind` and where they came from. */
export interface DispatchJobs {
  dispatchKind: string;
  jobsFile: string | null;
  jobs: ResolvedJob[];
}

/**
 * The jobs of a dispatch (docs/contracts.md §7 jobs file; cmux adapter text):
 * from `--jobs-file` (its `dispatchKind`; `--dispatch-kind` must equal it),
 * or derived from the run manifest's `workerAssignments[]` (dispatchKind
 * `initial`; a host lead's `native-session` rows are left to the lead).
 * `--workers` narrows the set. Every path must stay inside the project
 * root and every prompt must exist.
 * @throws InputError (exit 2) naming the file and field.
 */
export async function resolveDispatchJobs(args: {
  projectRoot: string;
  manifestPath: string;
  manifest: RunManifest;
  jobsFile?: string;
  dispatchKind?: string;
  /** `--workers`: only these worker ids (empty or absent: every job). */
  workers?: readonly string[];
}): Promise<DispatchJobs> {
  const { projectRoot, manifestPath, manifest } = args;
  let out: DispatchJobs;
  if (args.jobsFile) {
    const file = resolveInsideRoot(projectRoot, args.jobsFile, '--jobs-file');
    const doc = await readArtifact(file, jobsFileArtifact);
    if (args.dispatchKind !== undefined && args.dispatchKind !== doc.dispatchKind) {
      throw new InputError(`--dispatch-kind '${args.dispatchKind}' does not match the file's dispatchKind '${doc.dispatchKind}'`, {
        file,
        field: 'dispatchKind',
      });
    }
    out = { dispatchKind: doc.dispatchKind, jobsFile: file, jobs: doc.jobs.map((job, i) => resolveJob(projectRoot, job, `jobs[${i}]`, file)) };
  } else {
    if (args.dispatchKind !== undefined && args.dispatchKind !== INITIAL_DISPATCH_KIND) {
      throw new InputError(`--dispatch-kind '${args.dispatchKind}' needs --jobs-file (a manifest dispatch is 'initial')`, { field: '--dispatch-kind' });
    }
    out = { dispatchKind: INITIAL_DISPATCH_KIND, jobsFile: null, jobs: manifestJobs(projectRoot, manifestPath, manifest, args.workers) };
  }
  const wanted = args.workers ?? [];
  if (wanted.length > 0) {
    const known = new Set(out.jobs.map((j) => j.workerId));
    const unknown = wanted.filter((w) => !known.has(w));
    if (unknown.length > 0) throw new InputError(`unknown worker(s) ${unknown.join(', ')} (jobs: ${[...known].join(', ')})`, { field: '--workers' });
    out.jobs = out.jobs.filter((j) => wanted.includes(j.workerId));
  }
  for (const job of out.jobs) {
    const field = `${job.where}.promptPath`;
    const file = out.jobsFile ?? manifestPath;
    if (!existsSync(job.promptPath)) throw new InputError(`prompt file not found: ${job.promptPath}`, { file, field });
    // A FIFO prompt would block the pane's wrapper: regular files only (docs/conventions.md "Input files").
    try {
      checkRegularFile(statSync(job.promptPath), job.promptPath);
    } catch (error) {
      throw error instanceof InputError ? new InputError(`prompt ${job.promptPath} ${error.message}`, { file, field }) : error;
    }
  }
  return out;
}

function resolveJob(root: string, job: Job, where: string, file: string): ResolvedJob {
  const inside = (p: string, field: string) => {
    try {
      return resolveInsideRoot(root, p, `${where}.${field}`);
    } catch (error) {
      throw error instanceof InputError ? new InputError(error.message, { file, field: error.field }) : error;
    }
  };
  const completionPaths = job.completionPaths.map((p, k) => inside(p, `completionPaths[${k}]`));
  const declaredAudit = typeof job.auditSidecarPath === 'string' ? inside(job.auditSidecarPath, 'auditSidecarPath') : null;
  return {
    workerId: job.workerId,
    provider: job.provider,
    role: job.role,
    model: job.modelExecutionValue,
    promptPath: inside(job.promptPath, 'promptPath'),
    resultPath: inside(job.resultPath, 'resultPath'),
    workerResultPath: inside(job.workerResultPath, 'workerResultPath'),
    completionPaths,
    auditSidecarPath: declaredAudit ?? completionPaths.find((p) => p.endsWith('.audit.md')) ?? null,
    where,
  };
}

/**
 * Whether okstra team starts this assignment: every row under an external
 * lead or the cmux backend; otherwise only `runner: cli-wrapper` rows, since
 * a host lead (Claude Code, Codex, …) starts its `native-session` rows itself
 * and records them with `worker-state transition` (docs/team.md "Native workers").
 */
function dispatchedByTeam(manifest: RunManifest, assignment: Assignment): boolean {
  // libs/schemas `workerRoute`: the rule await and run-audit apply to the same rows.
  return workerRoute(manifest, { workerId: assignment.workerId ?? assignment.provider, role: assignment.role }) === 'team';
}

function manifestJobs(root: string, manifestPath: string, manifest: RunManifest, workers: readonly string[] | undefined): ResolvedJob[] {
  const runDir = runDirOfManifest(manifestPath);
  const run = { taskType: manifest.taskType, seq: manifest.seq };
  const seen = new Set<string>();
  const wanted = workers ?? [];
  const native = manifest.workerAssignments.map((a, i) => ({ id: a.workerId ?? a.provider, i, a })).filter((x) => !dispatchedByTeam(manifest, x.a));
  const named = native.find((a) => wanted.includes(a.id));
  if (named) {
    throw new InputError(`worker '${named.id}' is a native-session worker of the ${manifest.leadRuntime} lead: the lead starts it, not okstra team`, {
      file: manifestPath,
      field: `workerAssignments[${named.i}].runner`,
    });
  }
  if (native.length === manifest.workerAssignments.length) {
    throw new InputError(`every assignment is native-session under leadRuntime '${manifest.leadRuntime}': okstra team has nothing to dispatch`, {
      file: manifestPath,
      field: 'workerAssignments',
    });
  }
  return manifest.workerAssignments.flatMap((a, i) => {
    if (!dispatchedByTeam(manifest, a)) return [];
    const workerId = a.workerId ?? a.provider;
    // The report writer writes after convergence, from its own one-job jobs file (seed 000 cmux.md: "Report-writer
    // uses a fresh one-job jobs file with dispatchKind: report-writer"): the manifest's dispatch leaves it out
    // unless `--workers` names it.
    if (isWriterLike({ workerId, role: a.role }) && !wanted.includes(workerId)) return [];
    if (seen.has(workerId)) throw new InputError(`worker '${workerId}' is assigned twice`, { file: manifestPath, field: `workerAssignments[${i}]` });
    seen.add(workerId);
    const result = resolveInsideRoot(root, workerResultPath(runDir, workerId, run), `workerAssignments[${i}]`);
    return [
      {
        workerId,
        provider: a.provider,
        role: a.role,
        model: a.executionValue,
        // Checked like every other path: a symlinked prompts/ leading out of the project is refused.
        promptPath: resolveInsideRoot(root, promptPath(runDir, workerId, run), `workerAssignments[${i}].promptPath`),
        resultPath: result,
        workerResultPath: result,
        completionPaths: [result],
        auditSidecarPath: resolveInsideRoot(root, auditSidecarPath(runDir, workerId, run), `workerAssignments[${i}].auditSidecarPath`),
        where: `workerAssignments[${i}]`,
      },
    ];
  });
}
