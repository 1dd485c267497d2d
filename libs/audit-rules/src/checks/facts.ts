import { basename } from 'node:path';
import { isInside, parseArtifactName } from '@okstra/paths';
import { capabilityOfRoleLabel, normalizeRoleLabel } from '@okstra/schemas/roles';
import { FACT_EDGES, type FactArtifact, type FactEdge } from '../facts/table.js';
import { select, type Hit } from '../facts/path.js';
import { docsOf, otherArtifactTexts } from '../facts/views.js';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';
import { STREAM_TYPES } from './non-answer.js';
import { appendAll } from '@okstra/core';

/** An edge of the fact table that could not be compared in a run: one end is recorded, the other is not. */
export interface UncheckedEdge {
  edge: string;
  /** The worker (or pane) the edge was to be compared for; absent for a run-level fact. */
  key?: string;
  /** The end that is not recorded (`<artifact>#<path>`). */
  missing: string;
}

/** A hit and the file it was read from. */
type FileHit = Hit & { file: string };

/** The hits of an end `<artifact>#<path>` in a run: every document of the artifact walked by the path. */
export async function endHits(run: RunUnderAudit, end: string): Promise<FileHit[]> {
  const [artifact, path] = splitEnd(end);
  const out: FileHit[] = [];
  for (const doc of await docsOf(run, artifact)) for (const h of select(doc.view, path, doc.key)) out.push({ ...h, file: doc.file });
  return out;
}

/** `<artifact>#<path>` split. */
export function splitEnd(end: string): [FactArtifact, string] {
  const i = end.indexOf('#');
  return [end.slice(0, i) as FactArtifact, end.slice(i + 1)];
}

/** An end whose values are filed by worker (or pane), not one per run. */
const KEYED = /\[@|^(status-sidecar|audit-sidecar|worker-result)#/;
const defined = (h: Hit) => h.value !== undefined && h.value !== null && h.value !== '';
const instant = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);
const role = (v: unknown) => capabilityOfRoleLabel(String(v)) ?? normalizeRoleLabel(String(v));
const show = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

/**
 * The fact graph's generic check (docs/run-audit.md "The fact graph"): every edge of the fact table
 * (facts/table.ts) whose comparison is `edge` is compared wherever both ends are recorded, one finding per
 * disagreement under the edge's invariant; an edge with one end recorded and the other not is added to the run's
 * `unchecked` list (`--json` `unchecked[]`), whichever check owns it, so a run that proves little shows it.
 */
export async function checkFacts(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const edge of FACT_EDGES) {
    if (edge.taskTypes && !edge.taskTypes.includes(run.taskType)) continue;
    const a = (await endHits(run, edge.a)).filter((h) => defined(h) && !edge.silentA?.includes(String(h.value)));
    const b = (await endHits(run, edge.b)).filter(defined);
    if (edge.relation === 'not-a-copy') {
      if (b.length > 0) appendAll(out, await notACopy(run, edge, b));
      continue;
    }
    if (a.length === 0 && b.length === 0) continue;
    if (a.length === 0 || b.length === 0) {
      // Listed only when the artifact is there and does not record the fact: a run without a jobs file or a
      // convergence state does not record those facts at all (both ends absent is no unchecked comparison).
      const missing = a.length === 0 ? edge.a : edge.b;
      if (RELEVANT[edge.relation]?.(b) !== false && (await docsOf(run, splitEnd(missing)[0])).length > 0) unchecked(run, { edge: edge.id, missing });
      continue;
    }
    // A worker (pane) whose item the second end has but without the fact, while the first end records it.
    if (KEYED.test(edge.b) && KEYED.test(edge.a)) {
      const rawB = await endHits(run, edge.b);
      const recorded = new Set(b.map((h) => h.key));
      for (const key of new Set(rawB.filter((h) => !defined(h) && !recorded.has(h.key)).map((h) => h.key)))
        if (a.some((h) => h.key === key)) unchecked(run, { edge: edge.id, key, missing: edge.b });
    }
    if (edge.checkedBy === 'edge') appendAll(out, compare(run, edge, a, b));
  }
  return out;
}

/** Relations that say something only about some values of the second end (a retry, a completed status). */
const RELEVANT: Partial<Record<FactEdge['relation'], (b: FileHit[]) => boolean>> = {
  'retry-counts-failure': (b) => b.some((h) => /-retry$/.test(String(h.value))),
};

function unchecked(run: RunUnderAudit, u: UncheckedEdge): void {
  (run.unchecked ??= []).push(u);
}

function compare(run: RunUnderAudit, edge: FactEdge, a: FileHit[], b: FileHit[]): Finding[] {
  const out: Finding[] = [];
  const finding = (message: string, files: string[]) =>
    out.push({ invariant: edge.invariant, message: `${edge.fact} (fact edge ${edge.id}): ${message}`, evidence: [...new Set(files)] });
  const aByKey = new Map<string, FileHit[]>();
  for (const h of a) aByKey.set(h.key, [...(aByKey.get(h.key) ?? []), h]);
  const aFor = (key: string) => aByKey.get(key) ?? aByKey.get('') ?? [];
  const who = (key: string) => (key ? `'${key}': ` : '');
  switch (edge.relation) {
    case 'equal':
    case 'not-before':
    case 'not-after':
    case 'duration': {
      for (const hb of b) {
        const ordered = edge.relation === 'not-before' || edge.relation === 'not-after';
        if (edge.silentB?.includes(String(hb.value)) || (ordered && selfContradicting(hb.item))) continue;
        const all = aFor(hb.key).filter((h) => !(ordered && selfContradicting(h.item)));
        const as = all;
        if (as.length === 0) {
          unchecked(run, { edge: edge.id, key: hb.key || undefined, missing: edge.a });
          continue;
        }
        if (as.some((ha) => holds(edge, ha.value, hb.value))) continue;
        const ha = as[0]!;
        finding(`${who(hb.key)}${basename(ha.file)} says ${show(ha.value)}, ${basename(hb.file)} says ${show(hb.value)}`, [ha.file, hb.file]);
      }
      break;
    }
    case 'subset': {
      const set = new Set(a.map((h) => String(h.value)));
      for (const hb of b)
        if (!set.has(String(hb.value)))
          finding(`${basename(hb.file)} names ${show(hb.value)}, which ${basename(a[0]!.file)} does not hold`, [a[0]!.file, hb.file]);
      break;
    }
    case 'covers': {
      const set = new Set(b.map((h) => String(h.value)));
      for (const ha of a)
        if (!set.has(String(ha.value))) finding(`${basename(ha.file)} holds ${show(ha.value)}, which ${basename(b[0]!.file)} lacks`, [ha.file, b[0]!.file]);
      break;
    }
    case 'path-names-key': {
      for (const hb of b) {
        const worker = String(aFor(hb.key)[0]?.value ?? hb.key);
        const named = parseArtifactName(basename(String(hb.value)), run.taskType)?.workerId;
        if (named !== undefined && named !== worker && !named.startsWith(`${worker}-`))
          finding(`${who(hb.key)}${basename(hb.file)} gives worker '${worker}' the path ${hb.value}, which is worker '${named}''s`, [hb.file]);
      }
      break;
    }
    case 'in-run': {
      for (const hb of b) {
        const abs = resolveRecorded(run.projectRoot, String(hb.value));
        if (!abs || !isInside(run.runDir, abs)) finding(`${who(hb.key)}${basename(hb.file)} names ${hb.value}, outside this run`, [hb.file]);
      }
      break;
    }
    case 'one-owner': {
      const byPane = new Map<string, FileHit[]>();
      for (const hb of b) byPane.set(hb.key, [...(byPane.get(hb.key) ?? []), hb]);
      for (const [pane, hits] of byPane) {
        const clash = hits.find((x, i) => hits.slice(i + 1).some((y) => x.value !== y.value && samePane(x.item, y.item) && overlap(x.item, y.item)));
        if (clash) finding(`pane ${pane} is credited to workers ${[...new Set(hits.map((h) => show(h.value)))].join(' and ')} at once`, [clash.file]);
      }
      break;
    }
    case 'counts': {
      for (const ha of a) {
        const records = b.filter((h) => h.key === ha.key);
        const attempt = Number(ha.value);
        if (records.length === 0 || !(attempt > 0)) continue;
        const started = records.filter((h) => !(h.item as { phase?: unknown }).phase).length;
        // More started dispatches than attempts: a dispatch the row never counted. Fewer records than attempts is
        // not evidence (a native or lead-started dispatch leaves no record); an erased first record is retry-base's.
        if (attempt < started)
          finding(`${who(ha.key)}the row counts ${attempt} attempt(s), workerDispatches records ${started} started dispatch(es)`, [ha.file, records[0]!.file]);
      }
      break;
    }
    case 'retry-has-base': {
      for (const ha of a) {
        const m = /^(.+)-retry$/.exec(String(ha.value));
        if (!m) continue;
        const at = instant((ha.item as { startedAt?: unknown }).startedAt);
        const base = a.filter((x) => x.key === ha.key && x.value === m[1]);
        if (base.length === 0) finding(`${who(ha.key)}its ${ha.value} dispatch retries a ${m[1]} dispatch that workerDispatches does not record`, [ha.file]);
        else if (!base.some((x) => !(instant((x.item as { startedAt?: unknown }).startedAt) > at)))
          finding(`${who(ha.key)}its ${ha.value} dispatch starts before the ${m[1]} dispatch it retries`, [ha.file]);
      }
      break;
    }
    case 'retry-counts-failure': {
      for (const hb of b) {
        if (!/-retry$/.test(String(hb.value))) continue;
        const failures = aFor(hb.key);
        if (failures.length === 0) unchecked(run, { edge: edge.id, key: hb.key, missing: edge.a });
        else if (failures.every((h) => Number(h.value) < 1))
          finding(`${who(hb.key)}it was retried (${hb.value}) but its row counts ${failures[0]!.value} failures`, [failures[0]!.file, hb.file]);
      }
      break;
    }
    case 'exit-agrees': {
      for (const hb of b) {
        const s = hb.item as { status?: unknown; exitCode?: unknown; signal?: unknown };
        if (s.status === 'completed' && (s.exitCode !== 0 || (s.signal !== null && s.signal !== undefined)))
          finding(`${who(hb.key)}${basename(hb.file)} says completed with exit code ${show(s.exitCode)}${s.signal ? ` and signal ${show(s.signal)}` : ''}`, [
            hb.file,
          ]);
      }
      break;
    }
    case 'terminal-agrees': {
      for (const hb of b) {
        const s = hb.item as { status?: unknown; endedAt?: unknown };
        for (const ha of aFor(hb.key)) {
          const row = ha.item as { status?: unknown; endedAt?: unknown };
          if ((row.status === 'error' || row.status === 'timeout') && s.status === 'completed' && !(instant(s.endedAt) > instant(row.endedAt)))
            finding(`${who(hb.key)}the row says ${row.status} but its current status sidecar says completed, ending before the row did`, [ha.file, hb.file]);
        }
      }
      break;
    }
    case 'cited-in':
    case 'all-cited': {
      const ids = new Set(a.map((h) => String(h.value)));
      const re = citationPattern(ids);
      if (!re) break;
      for (const hb of b) {
        const cited = new Set(String(hb.value).match(re) ?? []);
        if (edge.relation === 'cited-in') {
          const foreign = [...cited].filter((id) => !ids.has(id));
          if (foreign.length > 0)
            finding(`${basename(hb.file)} cites ${foreign.slice(0, 3).join(', ')}, which ${basename(a[0]!.file)} does not hold`, [a[0]!.file, hb.file]);
        } else if (cited.size > 0) {
          const dropped = [...ids].filter((id) => !cited.has(id));
          if (dropped.length > 0)
            finding(`${basename(hb.file)} cites findings but not ${dropped.slice(0, 3).join(', ')}, which ${basename(a[0]!.file)} holds`, [
              a[0]!.file,
              hb.file,
            ]);
        }
      }
      break;
    }
    default:
      break;
  }
  return out;
}

function holds(edge: FactEdge, a: unknown, b: unknown): boolean {
  const tol = (edge.toleranceS ?? 0) * 1000;
  switch (edge.relation) {
    case 'equal':
      return edge.normalize === 'role' ? role(a) === role(b) : String(a) === String(b);
    case 'not-before':
      return !(instant(b) < instant(a) - tol);
    case 'not-after':
      return !(instant(b) > instant(a) + tol);
    case 'duration':
      return !(Math.abs(Number(a) - Number(b)) > tol);
    default:
      return true;
  }
}

/** A row or record whose own end precedes its own start: its times are 3's to judge, not another artifact's to match. */
function selfContradicting(item: unknown): boolean {
  const t = item as { startedAt?: unknown; endedAt?: unknown } | null;
  return !!t && typeof t === 'object' && instant(t.endedAt) < instant(t.startedAt);
}

/** Two dispatch records on one pane: the same backend and tmux server (a pane id is unique per server). */
function samePane(x: unknown, y: unknown): boolean {
  const a = x as { backend?: unknown; tmuxSocket?: unknown };
  const b = y as { backend?: unknown; tmuxSocket?: unknown };
  return a.backend === b.backend && (a.tmuxSocket ?? null) === (b.tmuxSocket ?? null);
}

/** Two dispatch records whose panes were live at once (a pane is free again once torn down). */
function overlap(x: unknown, y: unknown): boolean {
  const span = (r: unknown) => {
    const d = r as { startedAt?: unknown; tornDownAt?: unknown };
    const end = instant(d.tornDownAt);
    return [instant(d.startedAt), Number.isNaN(end) ? Infinity : end] as const;
  };
  const [s1, e1] = span(x);
  const [s2, e2] = span(y);
  return s1 < e2 && s2 < e1;
}

/** A pattern matching ids written the way `ids` are (`F-001`: `F-` then the id's characters), or null for none. */
function citationPattern(ids: ReadonlySet<string>): RegExp | null {
  const prefixes = new Set([...ids].map((id) => /^([A-Z][A-Z0-9]*)-/.exec(id)?.[1]).filter((p): p is string => !!p));
  if (prefixes.size === 0) return null;
  return new RegExp(`(?<![\\w-])(?:${[...prefixes].join('|')})-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\\w-])`, 'g');
}

const normalized = (t: string) =>
  t
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .trim();

/**
 * A completed row's result that is another artifact of the run word for word (a status sidecar, a wrapper log, a
 * saved prompt, a jobs file), or has one's shape: a status sidecar's (`workerId`, `status`, `exitCode`), a job's
 * (`promptPath` and `completionPaths`, or `command` and `promptDelivery`), a jobs file's (`jobs[]`), or one
 * provider event (a single JSON line whose `type` is a provider stream event: a max-turns `result`, a `turn.failed`).
 */
async function notACopy(run: RunUnderAudit, edge: FactEdge, results: FileHit[]): Promise<Finding[]> {
  const out: Finding[] = [];
  const others = await otherArtifactTexts(run);
  for (const r of results) {
    const text = normalized(String(r.value));
    const copy = others.find((o) => o.file !== r.file && normalized(o.text) === text);
    const shape = copy ? `a copy of ${basename(copy.file)}` : artifactShape(text);
    if (shape)
      out.push({
        invariant: edge.invariant,
        message: `${edge.fact} (fact edge ${edge.id}): worker '${r.key}''s result ${basename(r.file)} is ${shape}`,
        evidence: [r.file, ...(copy ? [copy.file] : [])],
      });
  }
  return out;
}

function artifactShape(text: string): string | null {
  if (!text.startsWith('{')) return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const has = (...keys: string[]) => keys.every((k) => k in o);
  if (has('workerId', 'status', 'exitCode')) return "a wrapper status sidecar's JSON, not an answer";
  if (has('promptPath', 'completionPaths') || has('command', 'promptDelivery')) return 'a job file, not an answer';
  if (Array.isArray(o.jobs) && has('dispatchKind')) return 'a jobs file, not an answer';
  if (!text.includes('\n') && typeof o.type === 'string' && STREAM_TYPES.has(o.type))
    return `one provider event (${o.type}${typeof o.subtype === 'string' ? ` ${o.subtype}` : ''}), not an answer`;
  return null;
}
