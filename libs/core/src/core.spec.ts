import { describe, expect, it, vi } from 'vitest';
import { stableStringify } from './stable-json.js';
import { InputError, OkstraError, UsageError, oneLine, printable } from './errors.js';

describe('stableStringify', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{\n  "a": {\n    "c": null,\n    "d": [\n      3,\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}\n',
    );
  });
});

describe('printable', () => {
  it('shows every control character escaped, so a field from a file cannot forge a line or drive the terminal', () => {
    expect(printable('ok\n  [forged] line\r\x1b[31mred\x1b[0m\ttab\u2028sep\u0085nel\u0000')).toBe(
      'ok\\n  [forged] line\\r\\x1b[31mred\\x1b[0m\\ttab\\u2028sep\\x85nel\\x00',
    );
    expect(printable('plain text — ünïcode ✓')).toBe('plain text — ünïcode ✓');
  });

  it('oneLine still joins lines with a space, and escapes the rest', () => {
    expect(oneLine('a\n   b\x1b[2Jc')).toBe('a b\\x1b[2Jc');
  });
});

describe('OkstraError across copies of @okstra/core', () => {
  it("an error of another copy (a bundled bin's second copy of this package) is an OkstraError; subclasses keep the plain test", async () => {
    // A second module instance of errors.ts: what a bin bundled apart from its chunks holds.
    vi.resetModules();
    const other = await import('./errors.js');
    expect(other.OkstraError).not.toBe(OkstraError);
    const foreign = new other.InputError('the working directory no longer exists');
    expect(foreign instanceof OkstraError).toBe(true);
    expect(foreign instanceof InputError).toBe(false);
    expect(new InputError('x') instanceof UsageError).toBe(false);
    expect(new UsageError('x') instanceof OkstraError).toBe(true);
    expect(new Error('x') instanceof OkstraError).toBe(false);
    expect((null as unknown as object) instanceof OkstraError).toBe(false);
  });
});
