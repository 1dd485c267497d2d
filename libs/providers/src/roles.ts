import { InputError } from '@okstra/core';
import type { ProviderCapability, ProviderManifest } from '@okstra/schemas/provider-manifest';
import { capabilityOfRoleLabel, knownRoleLabels, WRITE_CAPABILITIES } from '@okstra/schemas/roles';

/**
 * The capability a job role needs — the role vocabulary of `@okstra/schemas`
 * roles.ts (docs/providers.md "Roles → capability"): every known label maps
 * explicitly; null for a label that maps to none.
 */
export function capabilityOfRole(role: string): ProviderCapability | null {
  return capabilityOfRoleLabel(role);
}

/**
 * Refuse a job whose role is unknown or that its provider cannot take (0.164.0
 * README table: e.g. grok as report writer). A `readOnly` provider never takes
 * implementation, verification or report-writer, whatever it declares.
 * @throws InputError (exit 2) naming `field` (e.g. `jobs[1].role`): the known labels, or the provider's capabilities.
 */
export function assertProviderRole(manifest: ProviderManifest, role: string, where: { file?: string; field?: string } = {}): ProviderCapability {
  const needed = capabilityOfRole(role);
  if (!needed) throw new InputError(`unknown role '${role}' (known: ${knownRoleLabels().join(', ')})`, where);
  if (manifest.readOnly && WRITE_CAPABILITIES.includes(needed)) {
    throw new InputError(`provider '${manifest.id}' cannot take role '${role}' (needs ${needed}; ${manifest.id} is read-only)`, where);
  }
  if (!manifest.capabilities.includes(needed)) {
    throw new InputError(
      `provider '${manifest.id}' cannot take role '${role}' (needs ${needed}; ${manifest.id} offers ${manifest.capabilities.join(', ')})`,
      where,
    );
  }
  return needed;
}
