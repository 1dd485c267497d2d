// Build step: write one JSON Schema (draft 2020-12, with $id) per artifact
// declared in any dist/*.js module, into dist/json-schema/<name>.schema.json.
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// zod's one home (src/zod.ts), as built.
import { toJSONSchema } from '../dist/zod.js';
// The `$id` rule's one home (src/artifact.ts), as built.
import { schemaId } from '../dist/artifact.js';

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
    // zod's own `$schema` is dropped: ours comes first, then `$id`, title and description, for readability.
    const { $schema: _, ...json } = toJSONSchema(value.schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' });
    const doc = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: schemaId(value.name),
      title: value.name,
      description: value.description,
      ...json,
    };
    writeFileSync(join(outDir, `${value.name}.schema.json`), JSON.stringify(doc, null, 2) + '\n');
  }
}
console.log(`emitted ${seen.size} JSON Schemas into ${outDir}`);
