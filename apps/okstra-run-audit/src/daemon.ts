// The run-audit daemon's entry (dist/daemon.js), started detached by the bin
// with its socket path (libs/cli-kit daemon/client.ts); docs/release.md "The run-audit daemon".
import { fileURLToPath } from 'node:url';
import { serveDaemon } from '@okstra/cli-kit';
import { main } from './main.js';

const socketPath = process.argv[2];
if (!socketPath) {
  process.stderr.write('okstra-run-audit daemon: usage: daemon.js <socket-path>\n');
  process.exit(2);
}
serveDaemon(main, socketPath, fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, ''));
// The first request should not pay for loading the command: load it while idle.
const { runRunAudit } = await import('./commands/run-audit.js');
if (typeof runRunAudit !== 'function') process.exit(70);
