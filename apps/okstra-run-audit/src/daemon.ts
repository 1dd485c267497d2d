// The run-audit daemon's entry (dist/daemon.js), started detached by the bin
// with its socket path (libs/cli-kit daemon/client.ts); docs/release.md "The run-audit daemon".
import { fileURLToPath } from 'node:url';
import { serveDaemon } from '@okstra/cli-kit';
import { main } from './main.js';
import { SERVED } from './served.js';

const socketPath = process.argv[2];
if (!socketPath) {
  process.stderr.write('okstra-run-audit daemon: usage: daemon.js <socket-path>\n');
  process.exit(2);
}
// The bin.ts beside this file: the daemon checks its socket path against it and serves only its commands.
serveDaemon(main, { ...SERVED, binPath: fileURLToPath(new URL('./bin.js', import.meta.url)) }, socketPath);
// The first request should not pay for loading the command: load it while idle.
const { runRunAudit } = await import('./commands/run-audit.js');
if (typeof runRunAudit !== 'function') process.exit(70);
