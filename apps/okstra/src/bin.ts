#!/usr/bin/env node
import { ExitCode, oneLine, processIo } from '@okstra/cli-kit';
import { main } from './main.js';

const io = processIo();
try {
  process.exitCode = await main(process.argv.slice(2), io);
} catch (error) {
  // Tools report their own errors (runCli); only a bug in the dispatcher lands here.
  // Not cli-kit's reportError: that module loads commander, which `okstra --help` does not need.
  io.stderr.write(`okstra: internal error (this is a bug, please report it): ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
  if (io.env.OKSTRA_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  process.exitCode = ExitCode.INTERNAL;
}
