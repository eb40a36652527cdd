// Apart from up-command.ts so `talon --help` and the API commands do not load the service runtime.
/** `talon up --help`. */
export const UP_USAGE = `Usage: pnpm talon up
  Runs until Ctrl-C (services stop first, so they drain). Refuses when another Talon runs on the same
  state directory, or when a port it needs is in use (it names the variable to set).

  TALON_STATE_DIR   state, PGlite database, NATS store, operator token (default <checkout>/.talon/state)
  NATS_URL          use this NATS instead of starting one (it needs the users of nats-server.conf)
  TALON_NATS_PORT   port of the private NATS (default 4222; a free one is picked when it is taken)
  TALON_HTTP_PORT   HTTP API and console (default 8080; TALON_HTTP_HOST default 127.0.0.1)
  TALON_GRPC_PORT   gRPC API (default 50051; TALON_GRPC_HOST default 127.0.0.1)
  DATABASE_URL      PostgreSQL instead of the embedded PGlite
  TALON_LLM_PROVIDER  the model provider (without one, chat runs slash commands only)`;
