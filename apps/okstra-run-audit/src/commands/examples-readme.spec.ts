// examples/README.md says how many violations run-audit reports on the sample's two broken tasks: that number
// is what run-audit reports (it said "four" while the audit found six).
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { main } from '../main.js';

const REPO = new URL('../../../../', import.meta.url).pathname;
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

describe('examples/README.md', () => {
  it("names the number of violations run-audit reports on the sample, and only the broken tasks' ones", async () => {
    const readme = readFileSync(join(REPO, 'examples/README.md'), 'utf8').replace(/\s+/g, ' ');
    const said = /reports exactly their (\w+) violations/.exec(readme)?.[1];
    expect(said).toBeDefined();
    const base = mkdtempSync(join(tmpdir(), 'okstra-sample-audit-'));
    try {
      cpSync(join(REPO, 'examples/sample-project'), join(base, 'p'), { recursive: true });
      const io = memoryIo();
      expect(await main(['run-audit', '--project-root', join(base, 'p'), '--json'], io)).toBe(1);
      const violations = JSON.parse(io.out()).violations as Array<{ taskKey: string }>;
      expect(WORDS.indexOf(said!)).toBe(violations.length);
      expect(new Set(violations.map((v) => v.taskKey))).toEqual(new Set(['sample:payments:broken-no-report', 'sample:payments:broken-stale-worker']));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
