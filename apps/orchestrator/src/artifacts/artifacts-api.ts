import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ArtifactsGetRequestSchema, ERROR_CODES, type ArtifactsGetRequest } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { SessionAccess } from '../auth/session-access.js';
import { ARTIFACT_STORE } from '../config/orchestrator.constants.js';
import type { ArtifactStore } from './artifact-store.js';

/** `artifacts.get`: the bytes a tool result named `artifact sha256:<hex>`. */
@Injectable()
export class ArtifactsApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    private readonly access: SessionAccess,
    @Inject(ARTIFACT_STORE) private readonly artifacts: ArtifactStore,
  ) {}

  onModuleInit(): void {
    this.router.register({
      name: 'artifacts.get',
      scope: 'read',
      description:
        'The bytes (base64) and MIME type of an image, audio or binary resource a tool returned, by the sha256 its text placeholder names. Operators read any; other tokens those returned in their own sessions.',
      request: ArtifactsGetRequestSchema,
      handle: async (request: ArtifactsGetRequest, context: ApiCallContext) => {
        const artifact = await this.artifacts.get(request.sha256);
        // Someone else's artifact answers like a missing one, so hashes cannot be probed.
        if (artifact && context.principal?.scope !== 'operator') {
          const usable = await this.access.usable(
            context.principal,
            await this.artifacts.sessionsOf(request.sha256),
          );
          if (usable.size === 0) throw notFound(request.sha256);
        }
        if (!artifact) throw notFound(request.sha256);
        return artifact;
      },
    });
  }
}

function notFound(sha256: string): TalonError {
  return new TalonError(
    ERROR_CODES.NOT_FOUND,
    `No artifact sha256:${sha256} for this token; artifacts are named in tool results as "artifact sha256:<hex>".`,
    { details: { sha256 } },
  );
}
