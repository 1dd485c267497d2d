import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

function sink(isTTY: boolean) {
  let text = '';
  return { write: (s: string) => ((text += s), true), isTTY, text: () => text };
}

describe('createProgress', () => {
  it('not a terminal: one plain line per step, a repeated step once, ticks (status) never', () => {
    const err = sink(false);
    const p = createProgress({ stderr: err }, 'okstra-x');
    p.step('round 1: a 2');
    p.status('a 3s');
    p.step('round 1: a 2');
    p.step('round 1 applied:\n2 agreed');
    p.done();
    expect(err.text()).toBe('okstra-x: round 1: a 2\nokstra-x: round 1 applied: 2 agreed\n');
  });

  it('a terminal: one live line rewritten in place, ended by done(); another stderr write ends it first', () => {
    const err = sink(true);
    const p = createProgress({ stderr: err }, 'okstra-x');
    p.step('one');
    p.status('tick');
    p.stderr.write('okstra-x: a warning\n');
    p.step('two');
    p.done();
    p.done();
    expect(err.text()).toBe('\r\x1b[Kokstra-x: one\r\x1b[Kokstra-x: tick\nokstra-x: a warning\n\r\x1b[Kokstra-x: two\n');
  });

  it('quiet: nothing in either mode', () => {
    for (const tty of [true, false]) {
      const err = sink(tty);
      const p = createProgress({ stderr: err }, 'okstra-x', { quiet: true });
      p.step('one');
      p.status('tick');
      p.done();
      expect(err.text()).toBe('');
    }
  });
});
