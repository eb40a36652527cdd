import type { Provider } from '@nestjs/common';
import type { ToolCatalog } from '@talon/tool-runtime';
import { HAND_CATALOG, ORCHESTRATOR_CONFIG, TOOL_CATALOG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { HandCatalog } from './hand-catalog.js';
import { HandsGetMethod } from './hands-get.method.js';
import { HandsListMethod } from './hands-list.method.js';

/** The hand catalog and the hands.* methods that need no jobs. */
export const handProviders: Provider[] = [
  {
    provide: HAND_CATALOG,
    useFactory: (config: OrchestratorConfig, tools: ToolCatalog) => new HandCatalog(config.handsDir, tools),
    inject: [ORCHESTRATOR_CONFIG, TOOL_CATALOG],
  },
  HandsListMethod,
  HandsGetMethod,
];
