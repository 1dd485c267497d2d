import { describe, expect, it } from 'vitest';
import { parseHeartbeatLine, parseHeartbeats } from './line.js';
import { sidecar } from './test-support/fixtures.js';

describe('parseHeartbeatLine (docs/contracts.md §7 shape)', () => {
  it('reads timestamp, phase and verb phrase', () => {
    expect(parseHeartbeatLine('- PROGRESS: 2026-11-29T08:00:00Z round-1 checking src/queue.ts')).toEqual({
      at: new Date('2026-11-29T08:00:00.000Z'),
      phase: 'round-1',
      verb: 'checking src/queue.ts',
      line: 0,
    });
  });

  it('applies offsets and keeps fractions (to the millisecond)', () => {
    expect(parseHeartbeatLine('- PROGRESS: 2026-11-29T10:30:00.125+02:00 phase-2 reading logs')?.at.toISOString()).toBe('2026-11-29T08:30:00.125Z');
    expect(parseHeartbeatLine('- PROGRESS: 2026-11-29T03:00:00.5-05:30 p x')?.at.toISOString()).toBe('2026-11-29T08:30:00.500Z');
    expect(parseHeartbeatLine('- PROGRESS: 2026-11-29t08:00:00.123456789z p x')?.at.toISOString()).toBe('2026-11-29T08:00:00.123Z');
  });

  it('drops a trailing CR and records the given line number', () => {
    expect(parseHeartbeatLine('- PROGRESS: 2026-11-29T08:00:00Z round-1 done \r', 7)).toMatchObject({ verb: 'done', line: 7 });
  });

  it.each([
    ['indented', '  - PROGRESS: 2026-11-29T08:00:00Z round-1 checking'],
    ['mid-line', 'I will write - PROGRESS: 2026-11-29T08:00:00Z round-1 checking'],
    ['no timestamp', '- PROGRESS: round-1 checking'],
    ['no verb phrase', '- PROGRESS: 2026-11-29T08:00:00Z round-1'],
    ['blank verb phrase', '- PROGRESS: 2026-11-29T08:00:00Z round-1    '],
    ['no zone', '- PROGRESS: 2026-11-29T08:00:00 round-1 checking'],
    ['date only', '- PROGRESS: 2026-11-29 round-1 checking'],
    ['impossible date', '- PROGRESS: 2026-02-30T08:00:00Z round-1 checking'],
    ['impossible hour', '- PROGRESS: 2026-11-29T25:00:00Z round-1 checking'],
    ['lower-case keyword', '- progress: 2026-11-29T08:00:00Z round-1 checking'],
    ['no space after colon', '- PROGRESS:2026-11-29T08:00:00Z round-1 checking'],
    ['quoted in a table cell', '| `- PROGRESS: 2026-11-29T08:00:00Z round-1 checking` |'],
  ])('rejects %s', (_name, line) => {
    expect(parseHeartbeatLine(line)).toBeNull();
  });
});

describe('parseHeartbeats', () => {
  it('finds exactly the column-0 heartbeats of a realistic sidecar, with 1-based line numbers', () => {
    const text = sidecar([
      '- PROGRESS: 2026-11-29T08:01:00Z round-1 reading the packet',
      '- PROGRESS: 2026-11-29T08:05:30.250+00:00 round-1 tracing src/queue.ts',
    ]);
    const found = parseHeartbeats(text);
    expect(found.map((h) => [h.at.toISOString(), h.phase, h.verb])).toEqual([
      ['2026-11-29T08:01:00.000Z', 'round-1', 'reading the packet'],
      ['2026-11-29T08:05:30.250Z', 'round-1', 'tracing src/queue.ts'],
    ]);
    const lines = text.split('\n');
    for (const h of found) expect(lines[h.line - 1]).toContain(h.verb);
  });

  it('accepts CRLF files and a leading BOM', () => {
    const text =
      '\uFEFF' +
      sidecar(['- PROGRESS: 2026-11-29T08:01:00Z round-1 a'], { crlf: true }).replace(/^# Audit.*\r\n/, '- PROGRESS: 2026-11-29T08:00:00Z round-0 start\r\n');
    expect(parseHeartbeats(text).map((h) => [h.line, h.verb])).toEqual([
      [1, 'start'],
      [17, 'a'],
    ]);
  });
});
