import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { RunUnderAudit } from '../run-context.js';
import { checkWriteLeftovers } from './leftovers.js';

function runWith(status: string, state: string[]): RunUnderAudit {
  const runDir = '/p/.okstra/tasks/g/t/runs/error-analysis';
  return {
    runDir,
    manifest: { status },
    files: { list: (dir: string) => (dir === join(runDir, 'state') ? state : []), exists: () => false, readText: async () => null },
  } as unknown as RunUnderAudit;
}

describe('invariant 19 write-leftover', () => {
  it('names a temp file and a lock an ended run left, and nothing else', () => {
    const found = checkWriteLeftovers(runWith('completed', ['team-state.json', '.team-state.json.okstra-tmp-123-ab12', 'team-state.json.lock']));
    expect(found.map((f) => [f.invariant, f.evidence[0]])).toEqual([
      ['write-leftover', '/p/.okstra/tasks/g/t/runs/error-analysis/state/.team-state.json.okstra-tmp-123-ab12'],
      ['write-leftover', '/p/.okstra/tasks/g/t/runs/error-analysis/state/team-state.json.lock'],
    ]);
  });

  it('does not judge a running run', () => {
    expect(checkWriteLeftovers(runWith('running', ['team-state.json.lock']))).toEqual([]);
  });
});
