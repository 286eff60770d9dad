// A scripted model server as the harness matrix sees it (test/integration/agents/harness-matrix.ts): the server's
// own requests, model requests and aborted streams, read live, with its turns in the matrix's terms.

/** What every scripted model server records (test/servers/models/, test/servers/ollama/). */
export type ScriptedModelServer<Request> = {
  url: string;
  requests: Request[];
  modelRequests(): unknown[];
  readonly abortedStreams: number;
  close(): Promise<void>;
};

/** The server seen through the matrix: the same records, `turns()` in the matrix's terms. */
export type WrappedModelServer<Request, Turn> = {
  url: string;
  requests: Request[];
  modelRequests(): unknown[];
  readonly abortedStreams: number;
  turns(): Turn[];
  close(): Promise<void>;
};

/**
 * Wraps a scripted model server for a harness driver's `startServer`: `turns` reads its conversation in the
 * matrix's terms, and `close` (default: the server's own) ends it and anything started with it.
 *
 * @example return wrapModelServer(server, () => server.turns().map(toMatrixTurn));
 */
export function wrapModelServer<Request, Turn>(
  server: ScriptedModelServer<Request>,
  turns: () => Turn[],
  close: () => Promise<void> = () => server.close(),
): WrappedModelServer<Request, Turn> {
  return {
    url: server.url,
    requests: server.requests,
    modelRequests: () => server.modelRequests(),
    get abortedStreams() {
      return server.abortedStreams;
    },
    turns,
    close,
  };
}
