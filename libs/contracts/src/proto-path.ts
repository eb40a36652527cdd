import { fileURLToPath } from 'node:url';

/** Absolute path of the orchestrator's gRPC proto (shipped beside the compiled contracts). */
export const TALON_PROTO_PATH = fileURLToPath(new URL('../proto/talon/v1/talon.proto', import.meta.url));
/** The proto package name. */
export const TALON_PROTO_PACKAGE = 'talon.v1';
