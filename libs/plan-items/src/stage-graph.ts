import type { StageGraphRow } from '@okstra/schemas/implementation-planning';
import { appendAll } from '@okstra/core';

/**
 * The downstream closure of `stages` in the Stage Map: the stages themselves plus
 * every stage that depends on one of them, directly or transitively (through
 * `depends_on`). Sorted ascending; numbers not in the map are ignored. Pure.
 */
export function downstreamClosure(stageMap: readonly StageGraphRow[], stages: Iterable<number>): number[] {
  const dependents = new Map<number, number[]>();
  for (const row of stageMap) {
    for (const dep of row.depends_on) dependents.set(dep, [...(dependents.get(dep) ?? []), row.stage_number]);
  }
  const known = new Set(stageMap.map((row) => row.stage_number));
  const closed = new Set<number>();
  const queue = [...stages].filter((n) => known.has(n));
  while (queue.length > 0) {
    const n = queue.pop()!;
    if (closed.has(n)) continue;
    closed.add(n);
    appendAll(queue, dependents.get(n) ?? []);
  }
  return [...closed].sort((a, b) => a - b);
}
