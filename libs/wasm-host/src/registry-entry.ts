import { Type, type Static } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { RegistryEntryInvalidError } from './errors/registry-entry-invalid-error.js';

/** One tool in `registry/tools/<name>.json`. Relative paths resolve against the entry's folder. */
export const RegistryEntrySchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }),
    display_name: Type.String({ minLength: 1, maxLength: 100 }),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.-]+)?$' }),
    wit_version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$' }),
    description: Type.String({ minLength: 1, maxLength: 4096 }),
    keywords: Type.Array(Type.String()),
    source: Type.Optional(Type.String()),
    artifact: Type.Object(
      { url: Type.String({ minLength: 1 }), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) },
      { additionalProperties: false },
    ),
    /** A path to a `*.capabilities.json` file, or the capabilities inline. */
    capabilities: Type.Union([Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Unknown())]),
    auth: Type.Object(
      { required: Type.Boolean(), secrets: Type.Array(Type.String()), summary: Type.String() },
      { additionalProperties: false },
    ),
    tags: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
/** A registry entry. */
export type RegistryEntry = Static<typeof RegistryEntrySchema>;

/** `registry/_bundles.json`: named sets of tools installed together. */
export const BundlesFileSchema = Type.Object({
  bundles: Type.Array(
    Type.Object(
      {
        name: Type.String({ minLength: 1 }),
        description: Type.String(),
        tools: Type.Array(Type.String(), { minItems: 1 }),
      },
      { additionalProperties: false },
    ),
  ),
});
/** A named bundle. */
export type ToolBundle = Static<typeof BundlesFileSchema>['bundles'][number];

const ajv = new Ajv({ allErrors: true, strict: false });
const validateEntry = ajv.compile<RegistryEntry>(RegistryEntrySchema);
const validateBundles = ajv.compile<Static<typeof BundlesFileSchema>>(BundlesFileSchema);

/** Validates a parsed registry entry. @throws RegistryEntryInvalidError */
export function parseRegistryEntry(input: unknown, source: string): RegistryEntry {
  if (validateEntry(input)) return input;
  const violations = (validateEntry.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
  );
  throw new RegistryEntryInvalidError(`${source} is not a valid registry entry: ${violations.join('; ')}.`, {
    details: { violations },
  });
}

/** Validates a parsed bundles file. @throws RegistryEntryInvalidError */
export function parseBundles(input: unknown, source: string): ToolBundle[] {
  if (validateBundles(input)) return input.bundles;
  const violations = (validateBundles.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
  );
  throw new RegistryEntryInvalidError(`${source} is not a valid bundles file: ${violations.join('; ')}.`, {
    details: { violations },
  });
}
