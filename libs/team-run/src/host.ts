/**
 * What dispatch, await and teardown take from the world besides their inputs:
 * the caller's working directory (relative paths resolve against it), its
 * environment (PATH, TMUX, the `OKSTRA_*` knobs) and its clock. A CLI's `Io`
 * is one; a test passes a fixed clock.
 */
export interface TeamHost {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  now(): Date;
}
