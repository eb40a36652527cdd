import { Type, type Static } from '@sinclair/typebox';

/**
 * The bytes of an image, audio or binary resource a tool returned, stored by content when the call was
 * made: the text a model reads names it as `artifact sha256:<hex>`, and `artifacts.get` gives it back.
 */
export const ArtifactsGetRequestSchema = Type.Object(
  { sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'lowercase hex sha256 of the bytes' }) },
  { additionalProperties: false },
);
/** Request of `artifacts.get`. */
export type ArtifactsGetRequest = Static<typeof ArtifactsGetRequestSchema>;

/** Reply of `artifacts.get`. */
export const ArtifactSchema = Type.Object({
  sha256: Type.String(),
  mimeType: Type.String(),
  /** Size of the bytes. */
  bytes: Type.Integer({ minimum: 0 }),
  /** The bytes, base64. */
  data: Type.String(),
  createdAt: Type.String(),
});
/** One stored artifact. */
export type Artifact = Static<typeof ArtifactSchema>;
