#!/usr/bin/env node
import { processIo } from '@okstra/cli-kit';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), processIo());
