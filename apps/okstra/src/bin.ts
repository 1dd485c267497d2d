#!/usr/bin/env node
import { processIo, reportError } from '@okstra/cli-kit';
import { main } from './main.js';

const io = processIo();
try {
  process.exitCode = await main(process.argv.slice(2), io);
} catch (error) {
  // Tools report their own errors (runCli); only a bug in the dispatcher lands here.
  process.exitCode = reportError('okstra', error, io);
}
