import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Artifact } from '@okstra/schemas/artifact';
import { teamStateArtifact } from '@okstra/schemas/team-state';
import { readArtifactSync, tryReadArtifact } from './artifact-io.js';
import { countKeyTokens, findDuplicateKey } from './json-keys.js';
import { parseJsonText, readJsonFileSync } from './read-file.js';

const dir = mkdtempSync(join(tmpdir(), 'okstra-json-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** Every artifact libs/schemas declares (the JSON Schema emitter finds them the same way). */
async function allArtifacts(): Promise<Artifact[]> {
  const src = join(import.meta.dirname, '..', '..', 'schemas', 'src');
  const found = new Map<string, Artifact>();
  for (const f of readdirSync(src).filter((n) => n.endsWith('.ts') && !n.endsWith('.spec.ts'))) {
    const mod = (await import(`@okstra/schemas/${f.replace(/\.ts$/, '')}`)) as Record<string, unknown>;
    for (const v of Object.values(mod)) if ((v as Artifact | null)?.kind === 'okstra-artifact') found.set((v as Artifact).name, v as Artifact);
  }
  return [...found.values()];
}

describe('duplicate keys are refused (docs/conventions.md "Input files")', () => {
  it('the reproducer, for every artifact kind: schemaVersion "9.9" then a supported one is exit 2 naming file, path and both lines', async () => {
    const artifacts = await allArtifacts();
    expect(artifacts.length).toBeGreaterThanOrEqual(20);
    for (const a of artifacts) {
      const p = file(`${a.name}.json`, `{\n  "schemaVersion": "9.9",\n  "note": "x",\n  "schemaVersion": ${JSON.stringify(a.versions[0] ?? '1.0')}\n}\n`);
      expect(() => readArtifactSync(p, a), a.name).toThrow(
        expect.objectContaining({
          exitCode: 2,
          file: p,
          field: 'schemaVersion',
          message: 'holds the key "schemaVersion" twice in one object (lines 2 and 4); refusing to guess which one counts',
        }),
      );
      // The best-effort reader does without it (null), never with the last value.
      expect(tryReadArtifact(p, a)).toBeNull();
    }
  });

  it('a nested duplicate names its JSON path: a worker row saying running, then completed', () => {
    const text = JSON.stringify(
      {
        schemaVersion: '1.0',
        taskType: 'error-analysis',
        seq: '001',
        workers: [{ workerId: 'claude', provider: 'claude', role: 'analyser', status: 'running' }],
      },
      null,
      2,
    ).replace('"status": "running"', '"status": "running",\n      "status": "completed"');
    const p = file('team-state-dup.json', text);
    expect(() => readArtifactSync(p, teamStateArtifact, { label: 'team-state.json' })).toThrow(
      expect.objectContaining({ file: 'team-state.json', field: 'workers[0].status', message: expect.stringMatching(/"status" twice .*\(lines 10 and 11\)/) }),
    );
  });

  it('keys that differ only in escapes are the same key', () => {
    expect(() => parseJsonText('{"a": 1, "\\u0061": 2}', { label: 'f.json' })).toThrow(
      expect.objectContaining({ field: 'a', message: expect.stringContaining('"a" twice') }),
    );
    expect(() => parseJsonText('{"x": {"k\\"": 1, "k\\u0022": 2}}')).toThrow(expect.objectContaining({ field: 'x.k"' }));
    expect(() => parseJsonText('[{"ok": 1}, [0, {"\\/": 1, "/": 2}]]')).toThrow(expect.objectContaining({ field: '[1][1]./' }));
  });

  it('the same key in sibling objects, and look-alikes, still pass', () => {
    const text = '{"workers": [{"status": "a"}, {"status": "b"}], "x": {"status": "c"}, "status": "d", "s": "\\"status\\": 1", "A": 1, "a": 2, "a ": 3}';
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
    expect(readJsonFileSync(file('siblings.json', text))).toEqual(JSON.parse(text));
    expect(findDuplicateKey(text)).toBeNull();
  });

  it('counts keys, not strings that look like keys', () => {
    expect(countKeyTokens('{"a": "b:", "c" :["d", ":e"], "f\\"": "\\\\", "g"\n:1}')).toBe(4);
    expect(countKeyTokens('["a", "b"]')).toBe(0);
    expect(countKeyTokens('"x"')).toBe(0);
  });

  it('__proto__ is an ordinary key: named twice is refused, once is kept', () => {
    expect(() => parseJsonText('{"__proto__": 1, "__proto__": 2}')).toThrow(expect.objectContaining({ field: '__proto__' }));
    expect(Object.keys(parseJsonText('{"__proto__": {"a": 1}, "b": 2}') as object)).toEqual(['__proto__', 'b']);
  });
});
