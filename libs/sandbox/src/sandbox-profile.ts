import { Value } from '@sinclair/typebox/value';
import {
  ERROR_CODES,
  SandboxProfileSchema,
  type SandboxLimits,
  type SandboxNetwork,
  type SandboxProfile,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * Limits of a sandbox unless its profile says otherwise: 60 CPU seconds, 2 GiB of address space (Node
 * reserves about 1 GiB of it at start; a 2 GiB allocation fails), 256 processes, 1 GiB files, 1024 open files, 64 MiB of `/tmp`.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  cpuSeconds: 60,
  addressSpaceBytes: 2 * 1024 * 1024 * 1024,
  maxProcesses: 256,
  maxFileBytes: 1024 * 1024 * 1024,
  maxOpenFiles: 1024,
  tmpBytes: 64 * 1024 * 1024,
});

/** What a caller writes to build a profile; everything is optional. */
export interface SandboxProfileInput {
  readPaths?: readonly string[];
  writePaths?: readonly string[];
  network?: SandboxNetwork;
  limits?: Partial<SandboxLimits>;
}

/** Builds and validates a profile, filling defaults: no paths, no network, {@link DEFAULT_SANDBOX_LIMITS}. */
export function sandboxProfile(input: SandboxProfileInput = {}): SandboxProfile {
  const profile: SandboxProfile = {
    readPaths: [...new Set(input.readPaths ?? [])],
    writePaths: [...new Set(input.writePaths ?? [])],
    network: input.network ?? { mode: 'none' },
    limits: { ...DEFAULT_SANDBOX_LIMITS, ...input.limits },
  };
  if (!Value.Check(SandboxProfileSchema, profile)) {
    const violations = [...Value.Errors(SandboxProfileSchema, profile)]
      .slice(0, 5)
      .map((error) => `${error.path || '/'}: ${error.message}`);
    throw new TalonError(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Invalid sandbox profile: ${violations.join('; ')}. Paths must be absolute; hosts are names or *.suffix patterns.`,
      { details: { violations } },
    );
  }
  for (const path of [...profile.readPaths, ...profile.writePaths]) {
    if (path.split('/').includes('..'))
      throw new TalonError(
        ERROR_CODES.SCHEMA_VIOLATION,
        `Invalid sandbox profile: path ${path} contains "..".`,
      );
  }
  return profile;
}
