// Build step: write one JSON Schema (draft 2020-12, with $id) per artifact
// declared in any dist/*.js module, into dist/json-schema/<name>.schema.json.
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// zod's one home (src/zod.ts), as built.
import { toJSONSchema } from '../dist/zod.js';

const dist = new URL('../dist/', import.meta.url).pathname;
const outDir = join(dist, 'json-schema');
mkdirSync(outDir, { recursive: true });
const seen = new Map();
for (const file of readdirSync(dist)
  .filter((f) => f.endsWith('.js'))
  .sort()) {
  const mod = await import(pathToFileURL(join(dist, file)).href);
  for (const value of Object.values(mod)) {
    if (!value || value.kind !== 'okstra-artifact' || seen.has(value.name)) continue;
    seen.set(value.name, file);
    const json = toJSONSchema(value.schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
    const doc = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://okstra.dev/schemas/${value.name}.schema.json`,
      title: value.name,
      description: value.description,
      ...json,
    };
    delete doc.$schema; // re-add first for readability
    writeFileSync(
      join(outDir, `${value.name}.schema.json`),
      JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...doc }, null, 2) + '\n',
    );
  }
}
console.log(`emitted ${seen.size} JSON Schemas into ${outDir}`);
