import { Ajv, type ValidateFunction } from 'ajv';
import { ToolDefinitionSchema, type ToolDefinition } from '@talon/contracts';
import { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error.js';

let validateDefinition: ValidateFunction | undefined;

/**
 * Checks a definition against the ToolDefinition contract (name pattern, the 13 effects, domain, timeout
 * range, …) without changing it; throws {@link InvalidToolDefinitionError}. Compiled on first use.
 */
export function assertValidToolDefinition(definition: ToolDefinition): void {
  validateDefinition ??= new Ajv({ allErrors: true, strict: false }).compile(ToolDefinitionSchema);
  const name = typeof definition?.name === 'string' ? definition.name : '(unnamed)';
  if (validateDefinition(definition)) return;
  const violations = (validateDefinition.errors ?? []).slice(0, 20).map((error) => ({
    path: error.instancePath,
    message: error.message ?? 'is invalid',
  }));
  throw new InvalidToolDefinitionError(name, violations);
}
