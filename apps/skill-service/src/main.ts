import 'reflect-metadata';
import { bootstrapService } from '@talon/service-runtime';
import { parseSkillServiceConfig } from './skill-service-config.js';
import { SkillServiceModule } from './skill-service.module.js';

const config = parseSkillServiceConfig();
await bootstrapService({
  config,
  module: (connection, logger) => SkillServiceModule.register(config, connection, logger),
});
