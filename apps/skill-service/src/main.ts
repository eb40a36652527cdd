import 'reflect-metadata';
import { bootstrapService, parseServiceConfig } from '@talon/service-runtime';
import { SkillServiceModule } from './skill-service.module.js';

const config = parseServiceConfig('skill-service');
await bootstrapService({ config, module: (connection, logger) => SkillServiceModule.register(config, connection, logger) });
