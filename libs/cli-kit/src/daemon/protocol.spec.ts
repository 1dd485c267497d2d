import { describe, expect, it } from 'vitest';
import { lineReader } from './protocol.js';

describe('lineReader (the daemon protocol)', () => {
  it('gives each complete line once, whatever the chunking, and holds a partial one back', () => {
    const text = '{"t":"accepted"}\n{"t":"done","stdout":"a\\nb"}\nrest';
    for (const size of [1, 2, 3, 7, 64]) {
      const lines: string[] = [];
      const feed = lineReader((l) => lines.push(l));
      for (let i = 0; i < text.length; i += size) feed(text.slice(i, i + size));
      expect(lines).toEqual(['{"t":"accepted"}', '{"t":"done","stdout":"a\\nb"}']);
    }
  });

  it('a 32 MiB line in 64 KiB chunks is read whole (each chunk is searched, not the whole buffer)', () => {
    const big = 'x'.repeat(32 * 1024 * 1024);
    const lines: string[] = [];
    const feed = lineReader((l) => lines.push(l));
    for (let i = 0; i < big.length; i += 65536) feed(big.slice(i, i + 65536));
    feed('\n');
    expect(lines.map((l) => l.length)).toEqual([big.length]);
  });
});
