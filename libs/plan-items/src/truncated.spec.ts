import { describe, expect, it } from 'vitest';
import { collectVerdicts } from './collect.js';

/** docs/contracts.md "Which answers give a vote": a truncated answer gives no vote. */
describe('a plan-verify answer that was cut off is refused as truncated', () => {
  const whole = '### P-Opt-1\n**Verdict**: AGREE\n**Basis**: fits `src/billing/ledger.ts:64`.\n';
  const read = (markdown: string, endOfTurn?: { signal: string } | null) =>
    collectVerdicts(['P-Opt-1'], [{ workerId: 'kimi', file: 'kimi.md', markdown, endOfTurn }]);

  it('captured without the end-of-turn signal: exit 2 naming the signal', () => {
    expect(() => read(whole, { signal: 'max-tokens' })).toThrow(/cut off: the provider's turn did not end \(end-of-turn signal 'max-tokens'/);
  });
  it('stopping mid-token: exit 2 naming the line', () => {
    expect(() => read(whole.replace('`src/billing/ledger.ts:64`.\n', '`src/billing/led'))).toThrow(/cut off: its last line leaves a code span open/);
  });
  it('whole, with end-turn or no signal captured: read', () => {
    for (const eot of [{ signal: 'end-turn' }, null, undefined]) expect(read(whole, eot).items[0].verdicts[0].verdict).toBe('AGREE');
  });
});
