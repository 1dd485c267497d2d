import type { RunManifest } from '@okstra/schemas/run-manifest';
import type { TeamState } from '@okstra/schemas/team-state';
import type { FileIndex } from './files.js';
import type { InvariantId } from './invariants.js';

/**
 * One run as the invariant checks see it: where it is, its parsed
 * run-manifest and team-state (null when absent or unreadable — the loader
 * already reported that as `artifact-invalid`), and its file index.
 * All paths are absolute.
 */
export interface RunUnderAudit {
  projectRoot: string;
  taskRoot: string;
  taskKey: string;
  runDir: string;
  taskType: string;
  /** The implementation stage (`stage-<N>/` level), when there is one. */
  stage?: number;
  /** Zero-padded seq from the run-manifest file name (`001`). */
  seq: string;
  manifestPath: string;
  manifest: RunManifest;
  teamStatePath: string | null;
  teamState: TeamState | null;
  files: FileIndex;
}

/** What one check found: an invariant id, a one-line message, and absolute evidence paths. */
export interface Finding {
  invariant: InvariantId;
  message: string;
  evidence: string[];
}

/** One invariant check: pure over the run and its files (reads go through `run.files`). */
export type RunCheck = (run: RunUnderAudit) => Promise<Finding[]> | Finding[];

/** True when the run-manifest says the run is over (`completed`, `failed` or `aborted`). */
export function runEnded(run: RunUnderAudit): boolean {
  return run.manifest.status !== 'running';
}
