#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { runViaDaemon } from '@okstra/cli-kit/daemon-client';
import { processIo } from '@okstra/cli-kit/io';
import { SERVED } from './served.js';

const argv = process.argv.slice(2);
// `run-audit` is answered by a warm daemon when one is up (docs/release.md "The run-audit daemon");
// nothing else is loaded before that is known, so a served call costs little more than node's own start.
const served = await runViaDaemon(
  { ...SERVED, binPath: fileURLToPath(import.meta.url), daemonPath: fileURLToPath(new URL('./daemon.js', import.meta.url)) },
  argv,
);
const io = processIo();
if (served) {
  // Nothing is written for an empty output, as the command itself writes nothing (a zero-length write to /dev/full fails).
  if (served.stdout) io.stdout.write(served.stdout);
  if (served.stderr) io.stderr.write(served.stderr);
  process.exitCode = served.code;
} else process.exitCode = await (await import('./main.js')).main(argv, io);
