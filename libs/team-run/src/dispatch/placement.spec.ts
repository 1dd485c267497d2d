import { describe, expect, it } from 'vitest';
import { chunkIntoWindows, panesPerWindow, tiledGrid } from './placement.js';

describe('pane placement', () => {
  it('follows tmux tiled grids', () => {
    expect(tiledGrid(1)).toEqual({ rows: 1, cols: 1 });
    expect(tiledGrid(5)).toEqual({ rows: 3, cols: 2 });
    expect(tiledGrid(12)).toEqual({ rows: 4, cols: 3 });
  });
  it('an 80x24 window holds 6 readable panes; the 200x50 detached session 42', () => {
    expect(panesPerWindow(80, 24)).toBe(6);
    expect(panesPerWindow(200, 50)).toBe(42);
    expect(panesPerWindow(20, 4)).toBe(1);
  });
  it('12 workers in 80x24 need two windows', () => {
    expect(chunkIntoWindows([...Array(12).keys()], panesPerWindow(80, 24)).map((w) => w.length)).toEqual([6, 6]);
  });
});
