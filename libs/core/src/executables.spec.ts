import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOnPath } from './executables.js';

describe('findOnPath', () => {
  it('takes the first executable regular file, skipping directories, non-executables and empty entries', () => {
    const root = mkdtempSync(join(tmpdir(), 'okstra-path-'));
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => join(root, n));
    for (const dir of [a, b, c, d]) mkdirSync(dir);
    mkdirSync(join(a, 'tool'));
    chmodSync(join(a, 'tool'), 0o755); // a directory with its execute bit is not a command
    writeFileSync(join(b, 'tool'), '#!/bin/sh\n', { mode: 0o644 });
    writeFileSync(join(c, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(d, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    const env = { PATH: ['', a, b, c, d].join(delimiter) };
    expect(findOnPath('tool', env)).toBe(join(c, 'tool'));
    expect(findOnPath('missing', env)).toBeNull();
    expect(findOnPath('c/tool', { PATH: root })).toBeNull();
    expect(findOnPath('tool', {})).toBeNull();
  });
});
