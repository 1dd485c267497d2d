import { basename, dirname, sep } from 'node:path';
import { appendAll, InputError, OkstraError, sameTaskKey } from '@okstra/core';
import { carryPath, formatSeq, isInside, isNormalAbsolute, parseArtifactName, tasksDir, toProjectRelative } from '@okstra/paths';
import { resolveRecorded } from './checks/recorded-path.js';
import { NotRegularFileError, readArtifactSync, type ArtifactOf } from '@okstra/state-file';
import type { Artifact } from '@okstra/schemas/artifact';
import { runManifestArtifact, type RunManifest } from '@okstra/schemas/run-manifest';
import { teamStateArtifact, type TeamState } from '@okstra/schemas/team-state';
import type { AuditUnchecked, AuditViolation } from '@okstra/schemas/audit';
import { RUN_CHECKS } from './checks/index.js';
import { UNKNOWN_PROJECT, type DiscoveredRun } from './discover.js';
import { type FileIndex } from './files.js';
import { invariantNumber } from './invariants.js';
import type { Finding, RunUnderAudit } from './run-context.js';
import type { UncheckedEdge } from './checks/facts.js';

/** One run's audit: its violations and the fact-table edges left unchecked (docs/run-audit.md "Output"). */
export interface RunVerdict {
  violations: AuditViolation[];
  unchecked: AuditUnchecked[];
}

/**
 * Audit one discovered run: parse its run-manifest and team-state (a file that
 * does not parse is an `artifact-invalid` violation naming the file and the
 * parse error — never a crash), then apply every invariant check.
 * @param files an index over the run directory's artifact dirs (shared by the runs of one directory).
 * @returns violations in catalogue order, and the fact-table edges that could not be compared; paths project-relative.
 */
export async function auditRun(projectRoot: string, found: DiscoveredRun, files: FileIndex): Promise<RunVerdict> {
  const rel = (p: string) => (p.startsWith(projectRoot + sep) && isNormalAbsolute(p) ? p.slice(projectRoot.length + 1) : toProjectRelative(projectRoot, p));
  const name = basename(found.manifestPath);
  const parsedName = safe(() => parseArtifactName(name, found.taskType));
  const base = { taskKey: found.taskKey, taskType: found.taskType, runDir: rel(found.runDir) };
  let stage = found.stage;
  const toViolations = (seq: string | null, findings: Finding[], unchecked: UncheckedEdge[] = []): RunVerdict => ({
    violations: findings
      .map((f, i) => ({ f, i }))
      .sort((a, b) => invariantNumber(a.f.invariant) - invariantNumber(b.f.invariant) || a.i - b.i)
      .map(({ f }) => ({
        invariant: f.invariant,
        ...base,
        ...(stage !== undefined ? { stage } : {}),
        seq,
        message: f.message,
        evidence: [...new Set(f.evidence.map(rel))],
      })),
    unchecked: unchecked.map((u) => ({ ...base, ...(stage !== undefined ? { stage } : {}), seq, ...u })),
  });

  if (found.misnamedStage !== undefined) {
    return toViolations(parsedName?.kind === 'run-manifest' ? formatSeq(parsedName.seq) : null, [
      invalid(`stage directory '${found.misnamedStage}' is not named stage-<N> (e.g. stage-1): its runs are outside the layout`, found.manifestPath),
    ]);
  }
  if (!parsedName || parsedName.kind !== 'run-manifest') {
    return toViolations(null, [invalid(`run-manifest file name '${name}' does not follow run-manifest-${found.taskType}-<seq>.json`, found.manifestPath)]);
  }
  const seq = formatSeq(parsedName.seq);
  let manifest: RunManifest;
  try {
    manifest = readRunArtifact(found.manifestPath, runManifestArtifact, rel(found.manifestPath));
  } catch (error) {
    return toViolations(seq, [invalid(describe(error), found.manifestPath)]);
  }
  const findings: Finding[] = [];
  if (stage !== undefined && manifest.stage != null && manifest.stage !== stage) {
    findings.push(invalid(`run-manifest says stage ${manifest.stage} but it lies in stage-${stage}/`, found.manifestPath));
  }
  stage ??= manifest.stage ?? undefined;
  if (manifest.seq !== seq || manifest.taskType !== found.taskType) {
    findings.push(invalid(`run-manifest says ${manifest.taskType} ${manifest.seq} but its path says ${found.taskType} ${seq}`, found.manifestPath));
  }
  // A manifest copied from another task judges that task's artifacts as this run's: never a clean audit.
  if (!sameTask(manifest.taskKey, found.taskKey)) {
    findings.push(invalid(`run-manifest says task ${manifest.taskKey} but it lies in the directory of task ${found.taskKey}`, found.manifestPath));
  }
  let teamStatePath: string | null = null;
  let teamState: TeamState | null = null;
  teamStatePath = resolveRecorded(projectRoot, manifest.teamStatePath);
  if (!teamStatePath) findings.push(invalid(`teamStatePath '${manifest.teamStatePath}' escapes the project root`, found.manifestPath));
  else if (isInside(tasksDir(projectRoot), teamStatePath) && !isInside(found.taskRoot, teamStatePath)) {
    findings.push({
      invariant: 'foreign-artifact',
      message: `the run-manifest's teamStatePath '${manifest.teamStatePath}' lies in another task's directory`,
      evidence: [found.manifestPath, teamStatePath],
    });
  }
  if (teamStatePath && (files.exists(teamStatePath) || manifest.status !== 'running')) {
    try {
      teamState = readRunArtifact(teamStatePath, teamStateArtifact, rel(teamStatePath));
    } catch (error) {
      findings.push(invalid(describe(error), teamStatePath));
    }
  }
  const run: RunUnderAudit = {
    projectRoot,
    taskRoot: found.taskRoot,
    taskKey: found.taskKey,
    runDir: found.runDir,
    taskType: found.taskType,
    ...(stage !== undefined ? { stage } : {}),
    seq,
    manifestPath: found.manifestPath,
    manifest,
    teamStatePath: teamState ? teamStatePath : null,
    teamState,
    files,
  };
  for (const check of RUN_CHECKS) {
    try {
      // Half the checks are synchronous: an await per check per run was ~135,000 microtask turns over 5,000 runs.
      const out = check(run);
      appendAll(findings, out instanceof Promise ? await out : out);
    } catch (error) {
      // An artifact a check had to read is not a regular file (FileIndex.readText): report it, never crash or hang.
      if (!(error instanceof InputError)) throw error;
      const file = error.file ?? found.runDir;
      findings.push(invalid(`${rel(file)}: ${error.message}`, file));
    }
  }
  return toViolations(seq, findings, run.unchecked);
}

/** The extra directory a run's checks look into outside its run directory (the stage carry dir). */
export function carryDirOf(taskRoot: string): string {
  return dirname(carryPath(taskRoot, 1));
}

/** A run-manifest's task key against its directory's; a directory keyed `unknown-project:` (no project.json) compares group and id only. */
function sameTask(claimed: string, found: string): boolean {
  if (sameTaskKey(claimed, found)) return true;
  const tail = (key: string) => key.slice(key.indexOf(':'));
  return found.startsWith(`${UNKNOWN_PROJECT}:`) && sameTaskKey(tail(claimed), tail(found));
}

function invalid(message: string, file: string): Finding {
  return { invariant: 'artifact-invalid', message, evidence: [file] };
}

function describe(error: unknown): string {
  if (error instanceof OkstraError) return error.toLine();
  return error instanceof Error ? error.message : String(error);
}

function safe<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

/**
 * `readArtifactSync` with run-audit's words for a special file: a directory,
 * FIFO, socket or device is `is not a regular file` (as `assertRegularOrMissing`
 * says it), found by the read's own fstat — no separate stat per run.
 * @throws InputError naming `label`: missing, not regular, not JSON, or not the artifact's schema.
 */
function readRunArtifact<A extends Artifact>(path: string, artifact: A, label: string): ArtifactOf<A> {
  try {
    return readArtifactSync(path, artifact, { label });
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new InputError('is not a regular file', { file: label });
    throw error;
  }
}
