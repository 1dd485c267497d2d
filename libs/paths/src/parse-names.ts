import { basename, dirname, sep } from 'node:path';
import { parseSeq } from './seq.js';

/** What a run artifact's file name says about itself. */
export interface ParsedArtifactName {
  kind: 'run-manifest' | 'team-state' | 'prompt' | 'wrapper-log' | 'wrapper-status' | 'worker-result' | 'audit-sidecar' | 'final-report' | 'final-report-data';
  taskType: string;
  seq: number;
  workerId?: string;
}

const PATTERNS: Array<[ParsedArtifactName['kind'], RegExp]> = [
  ['run-manifest', /^run-manifest-(?<rest>.+)\.json$/],
  ['team-state', /^team-state-(?<rest>.+)\.json$/],
  ['final-report-data', /^final-report-(?<rest>.+)\.data\.json$/],
  ['final-report', /^final-report-(?<rest>.+)\.md$/],
  ['wrapper-status', /^(?<worker>.+)-prompt-(?<rest>.+)\.status\.json$/],
  ['wrapper-log', /^(?<worker>.+)-prompt-(?<rest>.+)\.log$/],
  ['prompt', /^(?<worker>.+)-prompt-(?<rest>.+)\.md$/],
  ['audit-sidecar', /^(?<rest>.+)\.audit\.md$/],
  ['worker-result', /^(?<rest>.+)\.md$/],
];

/**
 * Parse an artifact file name given the run's task type (task types and
 * worker ids both contain `-`, so the type disambiguates the suffix).
 * @returns null when the name does not follow the layout for that type.
 */
export function parseArtifactName(fileName: string, taskType: string): ParsedArtifactName | null {
  const name = basename(fileName);
  const { suffix, exact } = suffixPatterns(taskType);
  for (const [kind, pattern] of PATTERNS) {
    const m = pattern.exec(name);
    if (!m?.groups) continue;
    const rest = m.groups.rest!;
    if (kind === 'worker-result' || kind === 'audit-sidecar') {
      const s = suffix.exec(rest);
      if (!s?.groups?.pre) return null;
      return { kind, taskType, seq: parseSeq(s.groups.seq!), workerId: s.groups.pre };
    }
    const s = exact.exec(rest);
    if (!s?.groups) return null;
    return { kind, taskType, seq: parseSeq(s.groups.seq!), ...(m.groups.worker ? { workerId: m.groups.worker } : {}) };
  }
  return null;
}

/** Where a run directory sits: its task root, task type and stage. */
export interface ParsedRunDir {
  taskRoot: string;
  taskType: string;
  stage?: number;
}

/**
 * Parse `<task-root>/runs/<task-type>[/stage-<N>]`.
 * @returns null when `dir` is not a run directory path.
 */
export function parseRunDir(dir: string): ParsedRunDir | null {
  const parts = dir.split(sep);
  let stage: number | undefined;
  let end = parts.length;
  const last = parts[end - 1] ?? '';
  const stageMatch = /^stage-([1-9][0-9]*)$/.exec(last);
  if (stageMatch) {
    stage = Number(stageMatch[1]);
    end -= 1;
  }
  if (end < 3 || parts[end - 2] !== 'runs') return null;
  const taskType = parts[end - 1]!;
  const root = parts.slice(0, end - 2).join(sep);
  return { taskRoot: root, taskType, ...(stage !== undefined ? { stage } : {}) };
}

/** The run directory of a run manifest path (`…/manifests/run-manifest-*.json` → `…`). */
export function runDirOfManifest(manifestPath: string): string {
  return dirname(dirname(manifestPath));
}

const SUFFIXES = new Map<string, { suffix: RegExp; exact: RegExp }>();

/** The two suffix patterns of a task type (`<worker>-<type>-<seq>` and `<type>-<seq>`), built once per type. */
function suffixPatterns(taskType: string): { suffix: RegExp; exact: RegExp } {
  let found = SUFFIXES.get(taskType);
  if (!found) {
    const type = escapeRegExp(taskType);
    found = { suffix: new RegExp(`^(?:(?<pre>.+)-)?${type}-(?<seq>[0-9]{3,})$`), exact: new RegExp(`^${type}-(?<seq>[0-9]{3,})$`) };
    if (SUFFIXES.size >= 64) SUFFIXES.clear();
    SUFFIXES.set(taskType, found);
  }
  return found;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
