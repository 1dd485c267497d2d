#!/usr/bin/env node
// A stand-in provider CLI replaying a typed transcript: reads its prompt from
// stdin, prints each event of <transcript.json> as one JSON line on stdout,
// writes <last-message text file> to <last-message path> when both are given,
// and exits with <code>. argv: <transcript.json> <last-message src|-> <last-message dst|-> <code>
import { copyFileSync, readFileSync } from 'node:fs';

const [transcript, lastSrc, lastDst, code] = process.argv.slice(2);
readFileSync(0);
for (const event of JSON.parse(readFileSync(transcript, 'utf8'))) process.stdout.write(`${JSON.stringify(event)}\n`);
if (lastSrc !== '-' && lastDst !== '-') copyFileSync(lastSrc, lastDst);
process.exitCode = Number(code);
