import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { appendAll, InputError } from '@okstra/core';
import { readArtifact } from '@okstra/state-file';
import { providerManifestArtifact, type ProviderManifest } from '@okstra/schemas/provider-manifest';
import { BUNDLED_PROVIDERS } from './bundled.js';
import { canonicalPath, isInside, userProvidersDir } from '@okstra/paths';
import type { LaunchValues } from './launch.js';
import { capabilityOfRole } from './roles.js';

/** A provider the registry knows: its manifest and where it came from. */
export interface RegisteredProvider {
  manifest: ProviderManifest;
  source: 'bundled' | 'user';
  /** The user install directory (`~/.okstra/adapters/providers/<id>`); null for bundled ones. */
  dir: string | null;
}

/** `<home>/.okstra/adapters/providers` — the only place user providers are discovered (0.164.0 registry text); built by libs/paths. */
export { userProvidersDir };

/**
 * Load the provider registry: the bundled manifests, then every
 * `<home>/.okstra/adapters/providers/<id>/provider.json` (a user install with
 * a bundled id replaces it). Nothing under a project directory is read: the
 * only root searched is derived from `home`, and when that directory exists
 * inside `projectRoot` (HOME set to the project, or a parent of it — by real
 * path, so a symlinked HOME counts) it is refused rather than loaded: a
 * repository must never supply the providers `team dispatch` executes
 * (docs/providers.md "Where providers come from").
 * @throws InputError (exit 2) for an invalid user manifest (file + JSON path),
 *   one whose `id` differs from its directory name, or a user provider
 *   directory inside `projectRoot`.
 */
export async function loadProviderRegistry(home: string | undefined, projectRoot?: string): Promise<Map<string, RegisteredProvider>> {
  const registry = new Map<string, RegisteredProvider>();
  for (const manifest of BUNDLED_PROVIDERS) registry.set(manifest.id, { manifest, source: 'bundled', dir: null });
  if (!home) return registry;
  const root = userProvidersDir(home);
  if (projectRoot !== undefined && existsSync(root) && isInside(canonicalPath(projectRoot), canonicalPath(root))) {
    throw new InputError('the user provider directory lies inside the project root, so the repository would supply its own providers; not loaded', {
      file: root,
      hint: 'run with HOME outside the project (install providers under your own ~/.okstra/adapters/providers)',
    });
  }
  let entries: string[];
  try {
    entries = (await readdir(root, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return registry;
  }
  for (const name of entries) {
    const file = join(root, name, 'provider.json');
    let manifest: ProviderManifest;
    try {
      manifest = await readArtifact(file, providerManifestArtifact);
    } catch (error) {
      if (error instanceof InputError && /file not found/.test(error.message)) continue;
      throw error;
    }
    if (manifest.id !== name) throw new InputError(`id '${manifest.id}' does not match its directory '${name}'`, { file, field: 'id' });
    registry.set(manifest.id, { manifest, source: 'user', dir: join(root, name) });
  }
  return registry;
}

/**
 * Look a provider up. @throws InputError (exit 2) naming `where` and the known ids.
 */
export function getProvider(registry: Map<string, RegisteredProvider>, id: string, where: { file?: string; field?: string } = {}): RegisteredProvider {
  const found = registry.get(id);
  if (!found) throw new InputError(`unknown provider '${id}' (known: ${[...registry.keys()].sort().join(', ')})`, where);
  return found;
}

/**
 * The argv words a job of `role` launches with: the manifest's
 * `argvByCapability` entry for the capability the role needs, else `argv`
 * (docs/providers.md "Bundled providers": e.g. claude's implementer runs
 * Bash inside Claude Code's sandbox, every other role may run only `date`).
 */
export function argvOf(manifest: ProviderManifest, role: string): readonly string[] {
  const capability = capabilityOfRole(role);
  return (capability && manifest.argvByCapability?.[capability]) || manifest.argv;
}

/** The launch's argv words, each with the manifest field it comes from (for error messages): {@link argvOf}, then `answerSchemaArgv` when schema-bound. */
function launchWords(manifest: ProviderManifest, role: string, schemaBound: boolean): Array<{ word: string; field: string }> {
  const argv = argvOf(manifest, role);
  const field = argv === manifest.argv ? 'argv' : `argvByCapability.${capabilityOfRole(role)}`;
  const words = argv.map((word, i) => ({ word, field: `${field}[${i}]` }));
  if (schemaBound && manifest.answerSchemaArgv)
    appendAll(
      words,
      manifest.answerSchemaArgv.map((word, i) => ({ word, field: `answerSchemaArgv[${i}]` })),
    );
  return words;
}

/**
 * The provider launch of a job of `role` as `{ file, args }` for spawn (never
 * a shell string): the executable (a user install's relative path resolved
 * against its directory; a bare name left for PATH lookup) and each word of
 * its argv ({@link argvOf}) with
 * `{model}`, `{promptPath}`, `{resultPath}`, `{projectRoot}`, `{writeRoot}`,
 * `{lastMessagePath}` filled ({@link LaunchValues}; docs/providers.md) — a
 * schema-bound launch's values also carry `{answerSchema}` and
 * `{answerSchemaPath}`, and its argv ends with `answerSchemaArgv` — and
 * the manifest's `env` (absent when it sets none).
 * @throws InputError for an unknown placeholder.
 */
export function buildLaunch(provider: RegisteredProvider, values: LaunchValues, role: string): { file: string; args: string[]; env?: Record<string, string> } {
  const { manifest, dir } = provider;
  const file = dir && manifest.executable.includes('/') && !isAbsolute(manifest.executable) ? resolve(dir, manifest.executable) : manifest.executable;
  // A schema-bound launch (values carry the answer's schema) appends `answerSchemaArgv` (docs/providers.md "Structured output").
  const args = launchWords(manifest, role, values.answerSchema !== undefined).map(({ word, field }) =>
    word.replace(/\{([A-Za-z]+)\}/g, (_, key: string) => {
      const value = Object.hasOwn(values, key) ? values[key as keyof LaunchValues] : undefined;
      if (value === undefined)
        throw new InputError(`unknown placeholder {${key}}${key.startsWith('answerSchema') ? ' (only answerSchemaArgv takes it)' : ''}`, {
          field,
          file: dir ? join(dir, 'provider.json') : `bundled provider ${manifest.id}`,
        });
      return value;
    }),
  );
  // The manifest's `env` goes into the job's command as is (docs/providers.md "Bundled providers").
  return manifest.env && Object.keys(manifest.env).length > 0 ? { file, args, env: { ...manifest.env } } : { file, args };
}
