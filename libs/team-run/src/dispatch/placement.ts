/** Smallest worker pane okstra creates (columns × rows): below this a provider CLI is unreadable. */
export const MIN_PANE = { cols: 30, rows: 5 } as const;

/** Size of a detached session okstra creates (no client attached, so okstra chooses it). */
export const DETACHED_SIZE = { cols: 200, rows: 50 } as const;

/** tmux's `tiled` grid for `n` panes: rows grow first, then columns (layout-set.c). */
export function tiledGrid(n: number): { rows: number; cols: number } {
  let rows = 1;
  let cols = 1;
  while (rows * cols < n) {
    rows++;
    if (rows * cols < n) cols++;
  }
  return { rows, cols };
}

/**
 * How many worker panes one window of `cols`×`rows` holds in a `tiled` layout
 * with every pane at least {@link MIN_PANE} (1 cell of border between panes).
 * Always ≥ 1: a window too small for even one pane still gets one.
 */
export function panesPerWindow(cols: number, rows: number): number {
  let n = 1;
  for (;;) {
    const g = tiledGrid(n + 1);
    const w = Math.floor((cols - (g.cols - 1)) / g.cols);
    const h = Math.floor((rows - (g.rows - 1)) / g.rows);
    if (w < MIN_PANE.cols || h < MIN_PANE.rows) return n;
    n++;
  }
}

/** Split `items` into windows of at most `perWindow`, in order. */
export function chunkIntoWindows<T>(items: readonly T[], perWindow: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += perWindow) out.push(items.slice(i, i + perWindow));
  return out;
}
