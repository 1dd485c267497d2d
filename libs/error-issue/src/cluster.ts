import type { IssueClassification, IssueGate } from '@okstra/schemas/error-issue';
import { invariantSummary } from '@okstra/audit-rules';
import type { IdentitySet } from './identities.js';
import { fingerprint, normalizeMessage } from './normalize.js';
import { classifyCluster, classifyRecord, recordSignals, type RawRecord, type SignalName } from './signals.js';

/** The documented gate defaults (docs/error-issue.md "Gate"): seen in ≥ 2 runs, ≥ 2 records. */
export const DEFAULT_GATE: Readonly<IssueGate> = Object.freeze({ minRuns: 2, minRecords: 2 });

/** At most this many distinct anonymized examples are kept per cluster. */
export const MAX_EXAMPLES = 20;

/** Records with one signature. Everything in it except `runs`/`projects` keys is already anonymized. */
export interface Cluster {
  /** `run-audit|<invariant>` or `<source>|<kind>|<normalized message>` (anonymized). */
  signature: string;
  fingerprint: string;
  origin: RawRecord['origin'];
  /** Anonymized source and kind (`run-audit`, `report-missing`). */
  source: string;
  kind: string;
  /** One line: the invariant summary, or the normalized message. */
  summary: string;
  records: number;
  /** Run keys (identities: never rendered; only counted). */
  runs: Set<string>;
  projects: Set<number>;
  recordClasses: IssueClassification[];
  signals: Partial<Record<SignalName, number>>;
  /** Anonymized task type → records. */
  taskTypes: Map<string, number>;
  /** Distinct anonymized + normalized messages/details (≤ {@link MAX_EXAMPLES}). */
  examples: Set<string>;
}

/** The signature of one raw record (docs/error-issue.md "Clustering"). */
export function recordSignature(r: RawRecord, identities: IdentitySet): { signature: string; source: string; kind: string; summary: string } {
  if (r.origin === 'run-audit') {
    return { signature: `run-audit|${r.kind}`, source: 'run-audit', kind: r.kind, summary: invariantSummary(r.kind) ?? r.kind };
  }
  const source = normalizeMessage(r.source, identities);
  const kind = normalizeMessage(r.kind, identities);
  const summary = normalizeMessage(r.message, identities);
  return { signature: `${source}|${kind}|${summary}`, source, kind, summary };
}

/**
 * Group records by signature. Signals and classes are computed on the raw
 * record here, before anything is anonymized (seed 000 `issue_signals.py` row).
 * @returns clusters sorted by fingerprint (deterministic).
 */
export function clusterRecords(records: Iterable<RawRecord>, identities: IdentitySet): Cluster[] {
  const clusters = new Map<string, Cluster>();
  for (const r of records) {
    const sig = recordSignature(r, identities);
    let c = clusters.get(sig.signature);
    if (!c) {
      c = {
        ...sig,
        fingerprint: fingerprint(sig.signature),
        origin: r.origin,
        records: 0,
        runs: new Set(),
        projects: new Set(),
        recordClasses: [],
        signals: {},
        taskTypes: new Map(),
        examples: new Set(),
      };
      clusters.set(sig.signature, c);
    }
    const signals = recordSignals(r);
    c.records++;
    c.runs.add(r.runKey);
    c.projects.add(r.projectIndex);
    c.recordClasses.push(classifyRecord(signals));
    for (const s of signals) c.signals[s] = (c.signals[s] ?? 0) + 1;
    if (r.taskType) {
      const t = normalizeMessage(r.taskType, identities);
      c.taskTypes.set(t, (c.taskTypes.get(t) ?? 0) + 1);
    }
    if (c.examples.size < MAX_EXAMPLES) {
      const example = normalizeMessage(r.detail ? `${r.message}\n${r.detail}` : r.message, identities);
      if (example) c.examples.add(example);
    }
  }
  return [...clusters.values()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
}

/** The class of a cluster (majority of its records; see {@link classifyCluster}). */
export function clusterClass(c: Cluster): IssueClassification {
  return classifyCluster(c.recordClasses);
}

/** True when the cluster passes the quantitative gate (both thresholds). */
export function passesGate(c: Cluster, gate: IssueGate): boolean {
  return c.runs.size >= gate.minRuns && c.records >= gate.minRecords;
}
