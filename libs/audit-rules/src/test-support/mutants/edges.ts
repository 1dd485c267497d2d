// The generator's edge mutations (issue #38 item 3): for every edge of the fact table (src/facts/table.ts), change
// one end, drop one end, and swap one end with another worker's (or another run's) copy — on every healthy run where
// both ends are recorded. A change or swap must be caught; a drop must be caught or listed in `unchecked[]`. Every
// mutant that is neither is explained by UNCAUGHT below. Not part of the build.
import { FACT_EDGES, type FactArtifact, type FactEdge } from '../../facts/table.js';
import { select, writeAt, type Hit } from '../../facts/path.js';
import { shift } from './helpers.js';
import { ROOT, type RunModel } from './model.js';

/** An edge mutation: which edge, which kind, which end. */
export interface EdgeMutation {
  edge: FactEdge;
  kind: 'change' | 'drop' | 'swap';
  end: 'a' | 'b';
  apply(r: RunModel): boolean;
}

interface ModelDoc {
  key: string;
  file: string;
  view: any;
  /** The line of a JSON-lines file the document is, or undefined for a whole-file document. */
  line?: number;
}

const promptOf = (r: RunModel, row: any) => r.local(row.promptPath) ?? r.p.prompt(row.workerId);
const instant = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);
const parse = (text: string) => {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
};

/** The documents of an artifact in the model (JSON artifacts only: text views are not edited). */
function modelDocs(r: RunModel, artifact: FactArtifact): ModelDoc[] {
  const file = (f: string): ModelDoc[] => (r.has(f) && parse(r.text(f)) !== undefined ? [{ key: '', file: f, view: parse(r.text(f)) }] : []);
  const s = `-${r.main.taskType}-${r.main.seq}.json`;
  switch (artifact) {
    case 'run-manifest':
      return file(r.p.manifest);
    case 'team-state':
      return file(r.p.teamState);
    case 'status-sidecar':
      return r.rows.flatMap((row) => {
        const f = promptOf(r, row).replace(/\.md$/, '.status.json');
        const view = r.has(f) ? parse(r.text(f)) : undefined;
        // Only the row's current dispatch's sidecar is compared (an earlier dispatch's is ignored by design).
        return view && !(instant(view.startedAt) < instant(row.startedAt)) ? [{ key: row.workerId, file: f, view }] : [];
      });
    case 'report-writer-jobs':
      return file(r.p.rwJobs);
    case 'reverify-jobs':
      return r
        .matching(/\/state\/reverify-jobs-r\d+-/)
        .filter((f) => f.endsWith(s))
        .flatMap(file);
    case 'report-data':
      return file(r.p.data);
    case 'convergence-groups':
      return file(r.p.groups);
    case 'convergence-plan':
      return r
        .matching(/\/state\/convergence-plan-r\d+-/)
        .filter((f) => f.endsWith(s))
        .flatMap(file);
    case 'convergence-final':
      return file(r.p.final);
    case 'plan-items':
      return file(r.p.planItems);
    case 'carry': {
      const stage = /stage-(\d+)/.exec(r.main.dir)?.[1];
      return stage ? file(r.p.carry(Number(stage))) : [];
    }
    case 'errors-log':
      return [...r.files.keys()]
        .filter((k) => /^errors-.+\.jsonl$/.test(k))
        .flatMap((f) =>
          r
            .text(f)
            .replace(/^\uFEFF/, '')
            .split('\n')
            .map((l, line) => ({ key: '', file: f, view: parse(l), line }))
            .filter((d) => d.view && d.view.taskType === r.main.taskType && Number(d.view.seq) === Number(r.main.seq)),
        );
    default:
      return [];
  }
}

function writeDoc(r: RunModel, doc: ModelDoc): void {
  if (doc.line === undefined) return r.setJson(doc.file, doc.view);
  const lines = r
    .text(doc.file)
    .replace(/^\uFEFF/, '')
    .split('\n');
  lines[doc.line] = JSON.stringify(doc.view);
  r.set(doc.file, lines.join('\n'));
}

type DocHit = Hit & { doc: ModelDoc };

function hitsOf(r: RunModel, end: string): DocHit[] {
  const i = end.indexOf('#');
  const out: DocHit[] = [];
  for (const doc of modelDocs(r, end.slice(0, i) as FactArtifact))
    for (const h of select(doc.view, end.slice(i + 1), doc.key)) if (h.value !== undefined && h.value !== null && h.value !== '') out.push({ ...h, doc });
  return out;
}

const isInstant = (v: unknown) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) && !Number.isNaN(Date.parse(v));
const workersOf = (r: RunModel): string[] => [
  ...new Set([...r.rows.map((w) => w.workerId), ...r.manifest.workerAssignments.map((a: any) => a.workerId ?? a.provider)]),
];

/** A value of the end `end` that contradicts `other` (the other end's value for the same key) under the edge's relation. */
function changed(r: RunModel, edge: FactEdge, end: 'a' | 'b', hit: DocHit, other: unknown): unknown {
  const v = hit.value;
  const rel = edge.relation;
  if (rel === 'not-before' || rel === 'not-after') {
    const base = isInstant(other) ? (other as string) : isInstant(v) ? (v as string) : null;
    if (!base) return undefined;
    // not-before: b must not precede a; not-after: b must not follow a. Break it by three hours.
    const later = (rel === 'not-after') === (end === 'b');
    return shift(base.replace(/(\.\d+)?([+-]\d\d:\d\d)$/, 'Z'), later ? 180 : -180);
  }
  if (rel === 'path-names-key') {
    const other2 = workersOf(r).find((w) => w !== hit.key && typeof v === 'string' && !v.includes(`/${w}-`));
    return other2 && typeof v === 'string' ? v.replace(`/${hit.key}-`, `/${other2}-`) : undefined;
  }
  if (rel === 'in-run') return typeof v === 'string' ? v.replace(ROOT, '.okstra/tasks/gen/another-task') : undefined;
  if (rel === 'counts') return end === 'a' && typeof v === 'number' && v > 1 ? v - 1 : undefined;
  if (rel === 'retry-counts-failure') return end === 'a' ? 0 : undefined;
  if (rel === 'exit-agrees') return end === 'b' ? 137 : undefined;
  if (rel === 'terminal-agrees') return end === 'a' && v === 'completed' ? 'error' : undefined;
  if (rel === 'duration') return end === 'a' && typeof v === 'number' ? v + 120_000 : undefined;
  if (edge.normalize === 'role') return 'Critic worker';
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'string') {
    if (/^sha256:[0-9a-f]{64}$/.test(v)) return `sha256:${'0'.repeat(64)}`;
    if (isInstant(v)) return shift(v.replace(/(\.\d+)?([+-]\d\d:\d\d)$/, 'Z'), 180);
    if (/^\d+$/.test(v)) return String(Number(v) + 1).padStart(v.length, '0');
    return `${v}-other`;
  }
  return undefined;
}

/** Apply `fn` to the first comparable hit of `end` (a key the other end records too); false when none fits. */
function onHit(r: RunModel, edge: FactEdge, end: 'a' | 'b', fn: (hit: DocHit, other: DocHit | undefined, all: DocHit[]) => unknown | typeof SKIP): boolean {
  const mine = hitsOf(r, end === 'a' ? edge.a : edge.b);
  const theirs = hitsOf(r, end === 'a' ? edge.b : edge.a);
  const otherEnd = end === 'a' ? edge.b : edge.a;
  // A text view or a derived value (`$…`) is not read here: the other end counts as recorded when its file is.
  const otherVirtual = otherEnd.includes('$') || TEXT_VIEWS.has(otherEnd.split('#')[0] as FactArtifact);
  const otherFile = otherVirtual && textFileOf(r, otherEnd.split('#')[0] as FactArtifact);
  for (const hit of mine) {
    const other = theirs.find((t) => t.key === hit.key) ?? theirs.find((t) => t.key === '');
    const selfEdge = edge.relation === 'one-owner' || edge.relation === 'retry-has-base';
    if (!other && !selfEdge && !otherFile) continue;
    const value = fn(hit, other, mine);
    if (value === SKIP) continue;
    if (!writeAt(hit.doc.view, hit.loc, value)) continue;
    writeDoc(r, hit.doc);
    return true;
  }
  return false;
}
const SKIP = Symbol('skip');

/** Artifacts the checks read as text views (facts/views.ts), which the generator does not edit. */
const TEXT_VIEWS = new Set<FactArtifact>(['report', 'audit-sidecar', 'worker-result']);

/** Whether the run records the artifact behind a text view or derived end (the other end of an edit). */
function textFileOf(r: RunModel, artifact: FactArtifact): boolean {
  switch (artifact) {
    case 'report':
      return r.has(r.p.report);
    case 'worker-result':
    case 'audit-sidecar':
      return r.rows.length > 0;
    case 'convergence-groups':
      // The seed digest is derived only from real groups (a findings list), not from a stub.
      return modelDocs(r, artifact).some((d) => Array.isArray(d.view.findings));
    default:
      return modelDocs(r, artifact).length > 0;
  }
}

/** For an order or duration edge, whether `value` at `end` still agrees with `other` (a swap that agrees is no mutant). */
function stillHolds(edge: FactEdge, end: 'a' | 'b', value: unknown, other: unknown): boolean {
  const [a, b] = end === 'a' ? [value, other] : [other, value];
  const tol = (edge.toleranceS ?? 0) * 1000;
  if (edge.relation === 'not-before') return !(instant(b) < instant(a) - tol);
  if (edge.relation === 'not-after') return !(instant(b) > instant(a) + tol);
  if (edge.relation === 'duration') return !(Math.abs(Number(a) - Number(b)) > tol);
  return false;
}

/** Every edge mutation, for every edge of the table (most fit only the runs that record both ends). */
export const EDGE_MUTATIONS: readonly EdgeMutation[] = FACT_EDGES.flatMap((edge): EdgeMutation[] => [
  ...(['b', 'a'] as const).map((end): EdgeMutation => ({
    edge,
    kind: 'change',
    end,
    apply: (r) =>
      onHit(r, edge, end, (hit, other, all) => {
        if (edge.relation === 'one-owner') return SKIP;
        // A retried dispatch's base kind renamed: the retry follows no record of the kind it retries.
        if (edge.relation === 'retry-has-base')
          return end === 'a' && all.some((h) => h.key === hit.key && h.value === `${hit.value}-retry`) ? `${hit.value}-x` : SKIP;
        const v = changed(r, edge, end, hit, other?.value);
        return v === undefined || v === hit.value ? SKIP : v;
      }),
  })),
  { edge, kind: 'drop', end: 'b', apply: (r) => onHit(r, edge, 'b', () => undefined) },
  {
    edge,
    kind: 'swap',
    end: 'b',
    apply: (r) =>
      onHit(r, edge, 'b', (hit, other, all) => {
        // Another worker's (record's) copy of the same fact; a pane's owner is swapped by PANE_SHARED.
        if (['one-owner', 'counts', 'retry-has-base'].includes(edge.relation)) return SKIP;
        const another = all.find((h) => h.key !== hit.key && JSON.stringify(h.value) !== JSON.stringify(hit.value) && typeof h.value === typeof hit.value);
        if (!another || (other && stillHolds(edge, 'b', another.value, other.value))) return SKIP;
        return another.value;
      }),
  },
]);

/** Pane mutations the generic writer cannot express: a second worker's record credited with the first's pane. */
export const PANE_SHARED: EdgeMutation = {
  edge: FACT_EDGES.find((e) => e.id === 'pane-owner')!,
  kind: 'swap',
  end: 'b',
  apply: (r) => {
    const records = r.manifest.workerDispatches.filter((d: any) => d.paneId && d.backend !== 'subprocess');
    const [first, second] = [records[0], records.find((d: any) => d.workerId !== records[0]?.workerId)];
    if (!first || !second) return false;
    r.editManifest((m) => {
      const d = m.workerDispatches.find((x: any) => x.workerId === second.workerId && x.paneId === second.paneId);
      d.paneId = first.paneId;
      d.backend = first.backend;
      d.tmuxSocket = first.tmuxSocket;
    });
    return true;
  },
};

/** A result replaced by another artifact of its run word for word (the `not-a-copy` edges). */
export const RESULT_COPIES: EdgeMutation[] = FACT_EDGES.filter((e) => e.relation === 'not-a-copy').map((edge) => ({
  edge,
  kind: 'swap',
  end: 'b',
  apply: (r) => {
    for (const row of r.rows) {
      if (row.status !== 'completed') continue;
      const result = r.local(row.resultPath) ?? r.p.result(row.workerId);
      const status = promptOf(r, row).replace(/\.md$/, '.status.json');
      if (r.has(result) && r.has(status) && result.endsWith('.md')) {
        r.set(result, r.text(status));
        return true;
      }
    }
    return false;
  },
}));

const edgeOf = (id: string) => FACT_EDGES.find((e) => e.id === id)!;
const finalIds = (r: RunModel): string[] => (r.has(r.p.final) ? (parse(r.text(r.p.final))?.findings ?? []).map((f: any) => f.id) : []);

/** Changes to an end the generic writer cannot reach: a text that cites ids, a fact a copy leaves out. */
export const TEXT_EDITS: EdgeMutation[] = [
  {
    edge: edgeOf('report-cites-findings'),
    kind: 'change',
    end: 'b',
    apply: (r) => {
      const id = finalIds(r)[0];
      if (!id || !r.has(r.p.report) || !r.text(r.p.report).includes(id)) return false;
      r.set(r.p.report, r.text(r.p.report).replace(id, `${id.split('-')[0]}-999`));
      return true;
    },
  },
  {
    edge: edgeOf('data-cites-findings'),
    kind: 'change',
    end: 'b',
    apply: (r) => {
      if (finalIds(r).length === 0 || !r.has(r.p.data) || !r.text(r.p.data).includes(`"${finalIds(r)[0]!}"`)) return false;
      r.set(r.p.data, r.text(r.p.data).replace(`"${finalIds(r)[0]!}"`, `"${finalIds(r)[0]!.split('-')[0]}-999"`));
      return true;
    },
  },
  {
    edge: edgeOf('errors-line-task'),
    kind: 'change',
    end: 'b',
    apply: (r) => {
      const docs = modelDocs(r, 'errors-log');
      if (docs.length === 0) return false;
      for (const d of docs) {
        d.view.taskKey = 'gen:gen:another-task';
        writeDoc(r, d);
      }
      return true;
    },
  },
];

/** Every edge mutation with an id (`edge-<id>-<kind>-<end>`). */
export const EDGE_CLASSES = [...EDGE_MUTATIONS, PANE_SHARED, ...RESULT_COPIES, ...TEXT_EDITS].map((m) => ({
  ...m,
  id: `edge-${m.edge.id}-${m.kind}-${m.end}`,
}));

/**
 * Why an edge mutant may stay uncaught (neither a violation nor an `unchecked[]` entry): `<edge id>-<kind>-<end>`
 * (any healthy run) or with `--<healthy run>` appended. Each reason is also in docs/run-audit.md "Uncaught edge mutants".
 */
export const UNCAUGHT: Record<string, string> = {
  'reverify-job-completion-in-run-swap-b':
    "another worker's completion path is inside the run too: which worker a completion path belongs to is not a fact the jobs file records twice",
  'reverify-job-completion-in-run-drop-b':
    "a reverify job left with no completion path: 26 requires the field, and the jobs-file schema's one-path minimum is okstra team dispatch's to refuse (the audit does not re-validate a reverify jobs file's schema)",
  'final-rounds-change-a': "a round plan's `round` field renumbered: 29 finds a round's plan and results by their file names (`-r<N>-`), not by that field",
  'row-role-swap-b':
    "another analyser's role label (`Claude worker` for a `Codex worker`): both name the analysis capability, and 24 accepts any known label of the row's capability (libs/schemas roles.ts)",
  'data-holds-agreed-change-a':
    'an agreed finding renamed in a final state whose data.json cites no finding: data.json records no finding list to compare, and the final state alone is 8’s (validateFinalState reads no groups to rename against)',
};
