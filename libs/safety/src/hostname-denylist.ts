/**
 * Names refused before any lookup: cloud metadata endpoints reachable by name, and names that resolve
 * to the local machine by convention (`localhost`, `*.localhost`, RFC 6761) whatever DNS says.
 */
const FORBIDDEN_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
]);

/** Why a host name is refused without a lookup, or undefined when it may be resolved. */
export function forbiddenHostnameReason(name: string): string | undefined {
  if (FORBIDDEN_NAMES.has(name) || name.endsWith('.localhost')) {
    return name.startsWith('metadata') || name.startsWith('instance-data') ? 'cloud_metadata' : 'loopback';
  }
  return undefined;
}
