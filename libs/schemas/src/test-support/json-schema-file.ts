import { readFile } from 'node:fs/promises';
import { InputError } from '@okstra/core';

/**
 * Validate `data` against a JSON Schema loaded from a file at run time
 * (e.g. a published `dist/json-schema/*.schema.json`), with ajv (draft 2020-12).
 * @returns nothing when valid.
 * @throws InputError naming `label` and the JSON pointer of the first error.
 */
export async function validateWithJsonSchemaFile(schemaPath: string, data: unknown, label = 'input'): Promise<void> {
  const [{ default: Ajv2020 }, { default: addFormats }] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const schema = JSON.parse(await readFile(schemaPath, 'utf8')) as object;
  const ajv = new (Ajv2020 as unknown as typeof import('ajv').default)({ allErrors: false, strict: false });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  const validate = ajv.compile(schema);
  if (!validate(data)) {
    const err = validate.errors?.[0];
    throw new InputError(err?.message ?? 'does not match its JSON Schema', { file: label, field: err?.instancePath || '$' });
  }
}
