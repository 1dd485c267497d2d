import { join } from 'node:path';
import { installManifestArtifact, type InstallManifest } from '@okstra/schemas/install-manifest';
import { readArtifactIfExists } from '@okstra/state-file';
import { okstraHome } from './targets.js';

/** The manifest's place: `<okstra home>/install-manifest.json`. */
export function manifestPath(env: NodeJS.ProcessEnv): string {
  return join(okstraHome(env), 'install-manifest.json');
}

/** The last install's record, or undefined when nothing was installed (a damaged record is exit 2 naming it). */
export function readManifest(path: string): InstallManifest | undefined {
  return readArtifactIfExists(path, installManifestArtifact, { label: path });
}
