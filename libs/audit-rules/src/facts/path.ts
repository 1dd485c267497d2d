/**
 * Where a fact lives inside one artifact: a small path over its parsed JSON (or the view a text artifact is read
 * into), read by the edge checks and edited by the mutation generator alike (docs/run-audit.md "The fact graph").
 *
 * A path is `.`-separated names; a name may carry selectors that walk an array:
 * - `[*]` every item; `[@f]` every item, keyed by its `f` (`[@f|g]`: `f`, else `g`); `[@f:last]` the last item per key;
 * - `[?f=v]` only items whose `f` is `v` (`[?f=v|w]`: `v` or `w`).
 * A hit is the value found, the key it is filed under (the last `@` key; else the document's own key) and its
 * location (the names and indexes that reach it), so a writer can change or drop exactly that value.
 */
import { appendAll } from '@okstra/core';
export interface Hit {
  key: string;
  value: unknown;
  loc: (string | number)[];
  /** The array item (else the document) the value was found in: its sibling fields (a record's times, backend). */
  item: unknown;
}

interface Segment {
  name: string;
  selectors: string[];
}

const cache = new Map<string, Segment[]>();

function parse(path: string): Segment[] {
  let segs = cache.get(path);
  if (!segs) {
    segs = path.split('.').map((part) => {
      const m = /^([^[\]]*)((?:\[[^\]]*\])*)$/.exec(part);
      if (!m) throw new Error(`fact path '${path}': bad segment '${part}'`);
      return { name: m[1]!, selectors: [...m[2]!.matchAll(/\[([^\]]*)\]/g)].map((x) => x[1]!) };
    });
    cache.set(path, segs);
  }
  return segs;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every value `path` reaches in `doc`, keyed (see above); `docKey` keys a hit no `@` selector keys. */
export function select(doc: unknown, path: string, docKey = ''): Hit[] {
  let hits: Hit[] = [{ key: docKey, value: doc, loc: [], item: doc }];
  for (const seg of parse(path)) {
    const next: Hit[] = [];
    for (const h of hits) {
      const v = seg.name === '' ? h.value : isObject(h.value) ? h.value[seg.name] : undefined;
      const loc = seg.name === '' ? h.loc : [...h.loc, seg.name];
      if (seg.selectors.length === 0) {
        next.push({ key: h.key, value: v, loc, item: h.item });
        continue;
      }
      if (!Array.isArray(v)) continue;
      let items: Hit[] = v.map((item, i) => ({ key: h.key, value: item, loc: [...loc, i], item }));
      for (const sel of seg.selectors) items = applySelector(items, sel);
      appendAll(next, items);
    }
    hits = next;
  }
  return hits;
}

function applySelector(items: Hit[], sel: string): Hit[] {
  if (sel === '*') return items;
  if (sel.startsWith('?')) {
    const [field, want] = sel.slice(1).split('=') as [string, string];
    const wanted = new Set(want.split('|'));
    return items.filter((h) => isObject(h.value) && wanted.has(String(h.value[field])));
  }
  if (sel.startsWith('@')) {
    const [fields, mod] = sel.slice(1).split(':') as [string, string | undefined];
    const keyed = items
      .map((h) => {
        const item = isObject(h.value) ? h.value : {};
        const k = fields
          .split('|')
          .map((f) => item[f])
          .find((x) => x !== undefined && x !== null);
        return k === undefined ? null : { ...h, key: String(k) };
      })
      .filter((h): h is Hit => h !== null);
    if (mod !== 'last') return keyed;
    const last = new Map(keyed.map((h) => [h.key, h]));
    return keyed.filter((h) => last.get(h.key) === h);
  }
  throw new Error(`fact path: unknown selector [${sel}]`);
}

/** Set (or, with `undefined`, delete) the value at `loc` in `doc`; false when the location is gone. */
export function writeAt(doc: unknown, loc: readonly (string | number)[], value: unknown): boolean {
  if (loc.length === 0) return false;
  let cur = doc as Record<string | number, unknown>;
  for (const step of loc.slice(0, -1)) {
    const next = cur?.[step];
    if (next === undefined || next === null || typeof next !== 'object') return false;
    cur = next as Record<string | number, unknown>;
  }
  const last = loc[loc.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1);
    else delete cur[last];
  } else cur[last] = value;
  return true;
}
