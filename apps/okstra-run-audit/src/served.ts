/**
 * What the warm daemon answers (docs/release.md "The run-audit daemon"): the
 * bin's name (it names the socket) and the read-only commands it serves. One
 * home for the client (bin.ts), which sends only these, and the daemon
 * (daemon.ts), which refuses anything else.
 */
export const SERVED = { name: 'okstra-run-audit', commands: ['run-audit'] } as const;
