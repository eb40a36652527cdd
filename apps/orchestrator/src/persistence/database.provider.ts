import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Database } from '@talon/persistence';
import { DATABASE } from '../config/orchestrator.constants.js';

/** Closes the database when the orchestrator stops (after in-flight requests drained). */
@Injectable()
export class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
