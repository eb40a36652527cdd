import { describeSdkFailure, type SdkErrorClasses } from './sdk-failure.js';
import type { LlmFailure } from './llm-failure.js';

/**
 * An official SDK's client, imported on first use. Every service that reads the model configuration
 * imports this library, and loading both SDKs costs about 38 MiB resident (measured on an idle
 * orchestrator), so a service loads only the SDK of the provider it calls, once it calls it.
 */
export class LazySdkClient<TModule extends SdkErrorClasses, TClient> {
  private loading: Promise<TClient> | undefined;
  private module: TModule | undefined;

  constructor(
    private readonly load: () => Promise<TModule>,
    private readonly create: (sdk: TModule) => TClient,
  ) {}

  /** The client; the first call imports the SDK. */
  client(): Promise<TClient> {
    this.loading ??= this.load().then((sdk) => {
      this.module = sdk;
      return this.create(sdk);
    });
    return this.loading;
  }

  /** An error of this SDK (or of `fetch` under it) as an {@link LlmFailure}. */
  describeFailure(error: unknown): LlmFailure {
    return describeSdkFailure(error, this.module);
  }
}
