import { stableStringify } from '@okstra/core';
import type { PlanItem } from '@okstra/schemas/plan-items';

/** Differences between a persisted queue and a fresh extraction; every list is in fresh-queue order (extras in persisted order). */
export interface QueueDiff {
  /** Ids the fresh extraction has and the persisted file lacks. */
  missing: string[];
  /** Ids the persisted file has and the fresh extraction lacks. */
  extra: string[];
  /** Ids in both whose kind, stage, source, clarification or content differ. */
  changed: string[];
  /** Ids in both whose position in the queue differs (the queue order is part of the contract). */
  reordered: string[];
}

/**
 * Compare a persisted queue with a fresh extraction (0.161.0 `plan-items validate`:
 * "match a fresh deterministic extraction exactly"). Items compare by their
 * canonical JSON (sorted keys). Pure.
 */
export function compareQueues(persisted: readonly PlanItem[], fresh: readonly PlanItem[]): QueueDiff {
  const before = new Map(persisted.map((item, i) => [item.id, { item, i }] as const));
  const after = new Map(fresh.map((item, i) => [item.id, { item, i }] as const));
  const diff: QueueDiff = { missing: [], extra: [], changed: [], reordered: [] };
  const common: string[] = [];
  for (const item of fresh) {
    const old = before.get(item.id);
    if (!old) diff.missing.push(item.id);
    else {
      common.push(item.id);
      if (stableStringify(old.item) !== stableStringify(item)) diff.changed.push(item.id);
    }
  }
  for (const item of persisted) if (!after.has(item.id)) diff.extra.push(item.id);
  const persistedCommon = persisted.map((i) => i.id).filter((id) => after.has(id));
  common.forEach((id, k) => {
    if (persistedCommon[k] !== id) diff.reordered.push(id);
  });
  return diff;
}

/** True when the diff has no difference at all. */
export function isSameQueue(diff: QueueDiff): boolean {
  return diff.missing.length + diff.extra.length + diff.changed.length + diff.reordered.length === 0;
}
