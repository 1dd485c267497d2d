// Every lazily imported chunk of every built bin, loaded the way the bin loads
// it and asked for what the bin takes from it (issue #24 item 5: a lazy
// `import()` of yaml's CommonJS build took a named `parse` the chunk did not
// export, so the shipped bin failed where the sources passed). The names come
// from the built code itself (acorn over dist/*.js), so a new lazy import is
// covered without editing this file.
import { parse as parseJs } from 'acorn';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const APPS = join(import.meta.dirname, '..', '..', 'apps');

type Node = { type: string; [key: string]: unknown };

/** Property names an ObjectPattern destructures (`{parse:n}` → parse). */
function patternKeys(pattern: Node | undefined): string[] | null {
  if (!pattern || pattern.type !== 'ObjectPattern') return null;
  return (pattern.properties as Node[]).flatMap((p) =>
    p.type === 'Property' && (p.key as Node).type === 'Identifier' ? [(p.key as { name: string }).name] : [],
  );
}

/** One use of a lazily loaded module: the chunk (or a loader key such as `loadProgram`) and the names taken from it. */
interface LazyUse {
  file: string;
  target: { chunk: string } | { loader: string };
  names: string[] | null;
}

/**
 * The names taken from a module promise `node` (an `import("./x.js")` or a
 * `loader()` call): `let {a} = await p`, `(await p).a`, and the i-th element of
 * `let [.., {a}] = await Promise.all([.., p])`; null when the use cannot be read.
 */
function namesTaken(ancestors: Node[]): string[] | null {
  let i = ancestors.length - 1;
  let parent = ancestors[i - 1];
  let slot: number | null = null;
  if (parent?.type === 'ArrayExpression') {
    slot = (parent.elements as Node[]).indexOf(ancestors[i]!);
    const call = ancestors[i - 2];
    if (call?.type !== 'CallExpression') return null;
    i -= 2;
    parent = ancestors[i - 1];
  }
  if (parent?.type !== 'AwaitExpression') return null;
  const user = ancestors[i - 2];
  if (user?.type === 'MemberExpression' && user.object === parent && (user.property as Node).type === 'Identifier') {
    return slot === null ? [(user.property as { name: string }).name] : null;
  }
  if (user?.type === 'VariableDeclarator') {
    const id = user.id as Node;
    if (slot === null) return patternKeys(id);
    return id.type === 'ArrayPattern' ? patternKeys((id.elements as Node[])[slot]) : null;
  }
  return null;
}

/** Walk `node` depth first, calling `visit(node, ancestors)` with ancestors ending in the node. */
function walk(node: Node, visit: (ancestors: Node[]) => void, ancestors: Node[] = []): void {
  const path = [...ancestors, node];
  visit(path);
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === 'object' && typeof (child as Node).type === 'string') walk(child as Node, visit, path);
    }
  }
}

/** Every lazy use in one app's dist, loader keys resolved to the chunk they import. */
function lazyUses(dist: string): LazyUse[] {
  const uses: LazyUse[] = [];
  const loaders = new Map<string, string>();
  for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) {
    const ast = parseJs(readFileSync(join(dist, file), 'utf8'), { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true }) as unknown as Node;
    walk(ast, (path) => {
      const node = path.at(-1)!;
      if (node.type === 'ImportExpression' && (node.source as Node).type === 'Literal') {
        const chunk = (node.source as { value: string }).value;
        const arrow = path.at(-2);
        const property = path.at(-3);
        if (arrow?.type === 'ArrowFunctionExpression' && property?.type === 'Property' && (property.key as Node).type === 'Identifier') {
          loaders.set((property.key as { name: string }).name, chunk);
          return;
        }
        uses.push({ file, target: { chunk }, names: namesTaken(path) });
      }
      const callee = node.type === 'CallExpression' ? (node.callee as Node) : null;
      if (callee?.type === 'MemberExpression' && (callee.property as Node).type === 'Identifier' && (node.arguments as Node[]).length === 0) {
        const names = namesTaken(path);
        if (names) uses.push({ file, target: { loader: (callee.property as { name: string }).name }, names });
      }
    });
  }
  // A call `x.loadFoo()` is a lazy use only when some file defines `loadFoo: () => import(…)`.
  return uses.flatMap((u) => {
    if ('chunk' in u.target) return [u];
    const chunk = loaders.get(u.target.loader);
    return chunk ? [{ ...u, target: { chunk } }] : [];
  });
}

/** `typeof` of each asked name (undefined: the chunk lacks it; the bin would fail with "x is not a function" or read undefined) of each chunk, loaded in a fresh node as the bin loads it (an ESM import of the file). */
function loadChunks(dist: string, asks: Map<string, Set<string>>): Record<string, Record<string, string>> {
  const script = `const asks = ${JSON.stringify(Object.fromEntries([...asks].map(([c, n]) => [pathToFileURL(join(dist, c)).href, [...n]])))};
const out = {};
for (const [url, names] of Object.entries(asks)) {
  const m = await import(url);
  out[url] = Object.fromEntries(names.map((n) => [n, typeof m[n]]));
  // Called as the bin calls it where the call is safe to make here: yaml's parse on a frontmatter.
  if (typeof m.parse === 'function' && names.includes('parse')) out[url]['parse()'] = JSON.stringify(m.parse('approved: true'));
}
process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const byUrl = JSON.parse(r.stdout) as Record<string, Record<string, string>>;
  return Object.fromEntries([...asks.keys()].map((c) => [c, byUrl[pathToFileURL(join(dist, c)).href]!]));
}

const apps = readdirSync(APPS).filter((a) => existsSync(join(APPS, a, 'package.json')));

describe('lazily imported chunks of every built bin', () => {
  it('there is a built bin for every app', () => {
    expect(apps.length).toBeGreaterThanOrEqual(6);
    for (const app of apps) expect(existsSync(join(APPS, app, 'dist', 'bin.js')), `${app}: dist/bin.js (build first)`).toBe(true);
  });

  for (const app of apps) {
    it(`${app}: every lazy import's chunk exports every name the bin takes from it`, () => {
      const dist = join(APPS, app, 'dist');
      const uses = lazyUses(dist);
      // The umbrella's only lazy import is of another tool's package by name (its own specs run that).
      if (app !== 'okstra') expect(uses.length, 'every tool bin loads its program and sub-commands lazily').toBeGreaterThan(0);
      const unread = uses.filter((u) => u.names === null).map((u) => `${u.file} → ${(u.target as { chunk: string }).chunk}`);
      expect(unread, 'lazy imports whose use this spec cannot read: teach namesTaken the shape').toEqual([]);
      const asks = new Map<string, Set<string>>();
      for (const u of uses) {
        const chunk = (u.target as { chunk: string }).chunk;
        const set = asks.get(chunk) ?? new Set<string>();
        for (const n of u.names!) set.add(n);
        asks.set(chunk, set);
      }
      const loaded = loadChunks(dist, asks);
      const missing = Object.entries(loaded).flatMap(([chunk, names]) =>
        Object.entries(names)
          .filter(([name, type]) => !name.endsWith('()') && type === 'undefined')
          .map(([name, type]) => `${chunk}: ${name} is ${type}`),
      );
      expect(missing).toEqual([]);
      if (app === 'okstra-run-audit') {
        expect(
          Object.values(loaded)
            .map((n) => n['parse()'])
            .filter(Boolean),
          'the yaml chunk is loaded and parse called',
        ).toEqual(['{"approved":true}']);
      }
    });
  }
});
