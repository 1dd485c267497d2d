import { dirname, sep } from 'node:path';
import { answerRecordPath, answerSchemaPath, isInside, wrapperLastMessagePath } from '@okstra/paths';
import { answerJsonSchema, answerKindOfDispatch, type AnswerKind } from '@okstra/schemas/answers';
import type { ProviderManifest } from '@okstra/schemas/provider-manifest';
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
  /** A schema-bound launch only ({@link structuredAnswerOf}): the answer's JSON Schema as one line of JSON. */
  answerSchema?: string;
  /** A schema-bound launch only: the file the wrapper writes that schema to before the CLI starts (`answerSchemaPath`). */
  answerSchemaPath?: string;
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
  /** The answer kind of a schema-bound launch ({@link structuredAnswerOf}); absent or null for every other launch. */
  answerKind?: AnswerKind | null;
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
    ...(job.answerKind ? { answerSchema: JSON.stringify(answerJsonSchema(job.answerKind)), answerSchemaPath: answerSchemaPath(job.promptPath) } : {}),
  };
}

/** A schema-bound job's answer: its kind and where the wrapper records the object (the job file's `structuredAnswer`). */
export interface StructuredAnswer {
  kind: AnswerKind;
  recordPath: string;
}

/**
 * Whether a job's launch binds its answer to a JSON Schema (docs/providers.md
 * "Structured output"): its dispatch is a vote round (reverify, gap-vote,
 * plan-verify, with their retries and repairs; `answerKindOfDispatch`) and its
 * provider declares `answerSchemaArgv`. @returns the answer's kind and record
 * path (`answerRecordPath` beside the result), or null: the Markdown path.
 */
export function structuredAnswerOf(manifest: ProviderManifest, dispatchKind: string, resultPath: string): StructuredAnswer | null {
  const kind = answerKindOfDispatch(dispatchKind);
  return kind && manifest.answerSchemaArgv ? { kind, recordPath: answerRecordPath(resultPath) } : null;
}
