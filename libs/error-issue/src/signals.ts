import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { IssueClassification } from '@okstra/schemas/error-issue';
import { blankOverlongRuns } from './patterns.js';

/**
 * One input record before anonymization (docs/error-issue.md "Inputs"): an
 * `errors-*.jsonl` line or a run-audit violation, with the project it came
 * from and the run it belongs to. `runKey` identifies the run for the gate.
 */
export interface RawRecord {
  origin: 'errors-log' | 'run-audit';
  projectIndex: number;
  projectRoot: string;
  runKey: string;
  source: string;
  kind: string;
  message: string;
  /** stderr / stack excerpt, if any. */
  detail: string;
  exitCode: number | null;
  taskType: string | null;
}

/** Signal names (docs/error-issue.md "Signals"), computed on raw (pre-anonymization) records. */
export const SIGNALS = {
  'okstra-internal': (r: RawRecord) =>
    r.exitCode === 70 ||
    /internal error \(this is a bug/i.test(r.message + r.detail) ||
    /@okstra\/|[\\/]okstra-[a-z-]+[\\/](?:dist|src)[\\/]|okstra_ctl/.test(r.detail),
  'okstra-invariant': (r: RawRecord) => r.origin === 'run-audit',
  'env-missing-tool': (r: RawRecord) => /spawn \S+ ENOENT|command not found|not found in PATH|is not installed|executable file not found/i.test(text(r)),
  'env-permission': (r: RawRecord) =>
    /\bEACCES\b|\bEPERM\b|permission denied|operation not permitted|sandbox|blocked by (?:the )?policy|not allowed by policy/i.test(text(r)),
  'env-network-auth': (r: RawRecord) =>
    /ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ECONNRESET|socket hang up|network is unreachable|rate limit|\bHTTP (?:401|403|429)\b|unauthori[sz]ed|not logged in|authentication (?:failed|required)|auth login/i.test(
      text(r),
    ),
  'env-resource': (r: RawRecord) => /ENOSPC|no space left|ENOMEM|out of memory|EMFILE|too many open files/i.test(text(r)),
  'target-failure': (r: RawRecord) =>
    /AssertionError|\btests? failed\b|\bFAIL\b|error TS\d{3,5}|SyntaxError|compilation failed|build failed|npm ERR! Test failed/.test(text(r)),
  'target-path': (r: RawRecord) => mentionsTargetPath(r),
} as const;

/** A signal name. */
export type SignalName = keyof typeof SIGNALS;

function text(r: RawRecord): string {
  return `${r.kind}\n${r.message}\n${r.detail}`;
}

/** The signals a raw record carries, in {@link SIGNALS} order. */
export function recordSignals(r: RawRecord): SignalName[] {
  return (Object.keys(SIGNALS) as SignalName[]).filter((name) => SIGNALS[name](r));
}

/**
 * Classify one record from its signals (docs/error-issue.md "Classification"):
 * 1. `okstra-internal` or `okstra-invariant` → okstra-defect (okstra crashed or left inconsistent artifacts);
 * 2. any `env-*` → environment-policy;
 * 3. `target-failure` or `target-path` → target-code;
 * 4. otherwise okstra-defect (okstra logged an error with no sign the machine or the target caused it).
 */
export function classifyRecord(signals: readonly SignalName[]): IssueClassification {
  if (signals.includes('okstra-internal') || signals.includes('okstra-invariant')) return 'okstra-defect';
  if (signals.some((s) => s.startsWith('env-'))) return 'environment-policy';
  if (signals.includes('target-failure') || signals.includes('target-path')) return 'target-code';
  return 'okstra-defect';
}

const TIE_ORDER: readonly IssueClassification[] = ['environment-policy', 'target-code', 'okstra-defect'];

/**
 * A cluster's class: the class most of its records have; a tie goes to
 * environment-policy, then target-code — when unsure, nothing is filed.
 */
export function classifyCluster(recordClasses: readonly IssueClassification[]): IssueClassification {
  const counts = new Map<IssueClassification, number>();
  for (const c of recordClasses) counts.set(c, (counts.get(c) ?? 0) + 1);
  let best: IssueClassification = 'environment-policy';
  let bestCount = -1;
  for (const c of TIE_ORDER) {
    const n = counts.get(c) ?? 0;
    if (n > bestCount) {
      best = c;
      bestCount = n;
    }
  }
  return best;
}

const PATHISH = /(?:[A-Za-z]:\\|\/)?[\w.@+-]+(?:[\\/][\w.@+-]+)+/g;

/** True when the record names a file of the target project: inside its root, outside `.okstra` and `node_modules`. */
function mentionsTargetPath(r: RawRecord): boolean {
  // A run longer than MAX_RUN is no path anyone wrote (and would cost its length squared to scan).
  for (const m of blankOverlongRuns(decodePercent(text(r))).matchAll(PATHISH)) {
    const p = m[0];
    if (/^[A-Za-z]:/.test(p)) continue; // a Windows absolute path is never inside a POSIX project root
    if (m.index > 0 && m.input[m.index - 1] === '~') continue; // `~user/…` is a home directory, never inside the root
    const abs = isAbsolute(p) ? p : resolve(r.projectRoot, p);
    const rel = relative(r.projectRoot, abs);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    const first = rel.split(sep)[0];
    if (first === undefined || OKSTRA_SEGMENTS.has(first)) continue;
    return true;
  }
  return false;
}

/** First path segments that name okstra's own layout or dependencies, never target code. */
const OKSTRA_SEGMENTS = new Set(['.okstra', 'node_modules', 'runs', 'manifests', 'prompts', 'state', 'reports', 'worker-results', 'user-responses', 'carry']);

/** `%2F`/`%5C` decoded, so a percent-encoded absolute path is not taken for a relative one. */
function decodePercent(text: string): string {
  return text.replace(/%2[Ff]/g, '/').replace(/%5[Cc]/g, '\\');
}
