import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AttenuateRequestSchema,
  SelectRequestSchema,
  SkillInstallRequestSchema,
  SkillListRequestSchema,
  SkillLoadRequestSchema,
  SkillReadFileRequestSchema,
  SkillRemoveRequestSchema,
  SkillSearchRequestSchema,
  SUBJECTS,
  type AttenuateResult,
  type DiscoveryReport,
  type SelectResult,
  type SkillInstallResult,
  type SkillListResult,
  type SkillLoadResult,
  type SkillReadFileResult,
  type SkillRemoveResult,
  type SkillSearchResult,
  type SkillTriggerTable,
} from '@talon/contracts';
import { validatePayload } from '@talon/service-runtime';
import type { SkillCatalog } from '@talon/skills';
import { SKILL_CATALOG } from './skill-service.constants.js';

/** `talon.skills.v1.<method>`: each payload is validated against its contract schema, then the catalog answers. */
@Controller()
export class SkillServiceController {
  constructor(@Inject(SKILL_CATALOG) private readonly catalog: SkillCatalog) {}

  @MessagePattern(SUBJECTS.skills('list'))
  list(@Payload() payload: unknown): SkillListResult {
    return this.catalog.list(validatePayload(SkillListRequestSchema, payload, 'The payload of skills.list'));
  }

  @MessagePattern(SUBJECTS.skills('select'))
  select(@Payload() payload: unknown): SelectResult {
    return this.catalog.select(validatePayload(SelectRequestSchema, payload, 'The payload of skills.select'));
  }

  @MessagePattern(SUBJECTS.skills('attenuate'))
  attenuate(@Payload() payload: unknown): AttenuateResult {
    return this.catalog.attenuate(
      validatePayload(AttenuateRequestSchema, payload, 'The payload of skills.attenuate'),
    );
  }

  @MessagePattern(SUBJECTS.skills('search'))
  search(@Payload() payload: unknown): SkillSearchResult {
    return this.catalog.search(
      validatePayload(SkillSearchRequestSchema, payload, 'The payload of skills.search'),
    );
  }

  @MessagePattern(SUBJECTS.skills('install'))
  install(@Payload() payload: unknown): Promise<SkillInstallResult> {
    return this.catalog.install(
      validatePayload(SkillInstallRequestSchema, payload, 'The payload of skills.install'),
    );
  }

  @MessagePattern(SUBJECTS.skills('remove'))
  remove(@Payload() payload: unknown): Promise<SkillRemoveResult> {
    return this.catalog.remove(
      validatePayload(SkillRemoveRequestSchema, payload, 'The payload of skills.remove'),
    );
  }

  @MessagePattern(SUBJECTS.skills('load'))
  load(@Payload() payload: unknown): Promise<SkillLoadResult> {
    return this.catalog.load(validatePayload(SkillLoadRequestSchema, payload, 'The payload of skills.load'));
  }

  @MessagePattern(SUBJECTS.skills('readFile'))
  readFile(@Payload() payload: unknown): Promise<SkillReadFileResult> {
    return this.catalog.readFile(
      validatePayload(SkillReadFileRequestSchema, payload, 'The payload of skills.readFile'),
    );
  }

  @MessagePattern(SUBJECTS.skills('triggers'))
  triggers(): SkillTriggerTable {
    return this.catalog.triggers();
  }

  @MessagePattern(SUBJECTS.skills('report'))
  report(): DiscoveryReport {
    return this.catalog.report();
  }
}
