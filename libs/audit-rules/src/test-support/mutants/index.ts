// The mutation generator (issue #24 item 3): every class applied to every healthy
// run it fits, every legal variant likewise. Not part of the build.
import { CONVERGENCE_DERIVED_CLASSES, DERIVED_CLASSES, DERIVED_LEGAL } from './classes-derived.js';
import { LOOKALIKE_CLASSES, LOOKALIKE_LEGAL } from './classes-answer-lookalikes.js';
import { MARKUP_CLASSES, MARKUP_LEGAL } from './classes-markup.js';
import { UNBACKED_CLAIM_CLASSES, UNBACKED_CLAIM_LEGAL } from './classes-unbacked-claims.js';
import { CONTRADICTING_RECORD_CLASSES, CONTRADICTING_RECORD_LEGAL } from './classes-contradicting-records.js';
import { NON_ANSWER_CLASSES, NON_ANSWER_LEGAL } from './classes-non-answers.js';
import { RUN_CLASSES } from './classes-run.js';
import { WORKER_CLASSES } from './classes-workers.js';
import { EDGE_CLASSES, UNCAUGHT } from './edges.js';
import { FACT_BASES, HEALTHY, type HealthyRun } from './healthy.js';
import type { MutationClass } from './helpers.js';
import { LEGAL as BASE_LEGAL } from './legal.js';
import { RUNNER_LEGAL } from './legal-runners.js';
import type { GeneratedCase } from './write.js';

/** Every legal variant: the generator's own and the held-out breaker's. */
const LEGAL = [
  ...BASE_LEGAL,
  ...UNBACKED_CLAIM_LEGAL,
  ...CONTRADICTING_RECORD_LEGAL,
  ...NON_ANSWER_LEGAL,
  ...DERIVED_LEGAL,
  ...LOOKALIKE_LEGAL,
  ...MARKUP_LEGAL,
  ...RUNNER_LEGAL,
];
export { EDGE_CLASSES, HEALTHY, LEGAL, UNCAUGHT };
export { auditCases, writeCases, type GeneratedCase } from './write.js';

/** Every mutation class, each tagged with its seed rule. */
export const CLASSES: readonly MutationClass[] = [
  ...WORKER_CLASSES,
  ...RUN_CLASSES,
  ...UNBACKED_CLAIM_CLASSES,
  ...CONTRADICTING_RECORD_CLASSES,
  ...NON_ANSWER_CLASSES,
  ...DERIVED_CLASSES,
  ...CONVERGENCE_DERIVED_CLASSES,
  ...LOOKALIKE_CLASSES,
  ...MARKUP_CLASSES,
];

/** A generated case and what it is: `healthy`, a `mutant` of a class, an `edge` mutant of a fact edge, or a `legal` variant. */
export interface Generated extends GeneratedCase {
  kind: 'healthy' | 'mutant' | 'edge' | 'legal';
  /** The fact edge an `edge` mutant changes, drops or swaps, and how. */
  edge?: { id: string; kind: 'change' | 'drop' | 'swap' };
  healthy: string;
  /** The class or variant id (the healthy run's id for `healthy`). */
  of: string;
  rule?: string;
}

/** Generate every case: each healthy run as is, each class and each legal variant on every healthy run it fits. */
export function generate(healthy: readonly HealthyRun[] = HEALTHY, edgeBases: readonly HealthyRun[] = FACT_BASES): Generated[] {
  const out: Generated[] = [];
  for (const h of edgeBases.filter((b) => !healthy.includes(b))) {
    const base = h.build();
    out.push({ id: `h--${h.id}`, model: base, kind: 'healthy', healthy: h.id, of: h.id });
    out.push(...edgeMutants(h, base));
  }
  for (const h of healthy) {
    const base = h.build();
    out.push({ id: `h--${h.id}`, model: base, kind: 'healthy', healthy: h.id, of: h.id });
    if (edgeBases.includes(h)) out.push(...edgeMutants(h, base));
    for (const c of CLASSES) {
      const m = base.clone();
      if (c.apply(m)) out.push({ id: `${c.id}--${h.id}`, model: m, kind: 'mutant', healthy: h.id, of: c.id, rule: c.rule });
    }
    for (const v of LEGAL) {
      const m = base.clone();
      if (v.apply(m)) out.push({ id: `${v.id}--${h.id}`, model: m, kind: 'legal', healthy: h.id, of: v.id });
    }
  }
  return out;
}

/** Every edge mutation that fits the base `h`. */
function edgeMutants(h: HealthyRun, base: ReturnType<HealthyRun['build']>): Generated[] {
  const out: Generated[] = [];
  for (const e of EDGE_CLASSES) {
    const m = base.clone();
    if (e.apply(m))
      out.push({ id: `${e.id}--${h.id}`, model: m, kind: 'edge', healthy: h.id, of: e.id, rule: e.edge.rule, edge: { id: e.edge.id, kind: e.kind } });
  }
  return out;
}
