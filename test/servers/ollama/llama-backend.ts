/**
 * Real inference behind the scripted Ollama server: node-llama-cpp (prebuilt binary, never built here) runs a GGUF
 * model for `/api/chat`, with the request's `format` as a grammar and the sampler's probabilities after the grammar
 * as `logprobs`/`top_logprobs`. Token texts are detokenized in context, so they concatenate to the content exactly.
 */
import type {RawReply} from './index.ts';

export interface LlamaChat {
  chat(body: {
    messages?: {role: string; content: string}[];
    format?: unknown;
    top_logprobs?: number;
    options?: {temperature?: number};
  }): Promise<RawReply>;
  close(): Promise<void>;
}

const maxTokens = 96;

export async function createLlamaChat(modelPath: string): Promise<LlamaChat> {
  const {getLlama, LlamaGrammarEvaluationState, LlamaLogLevel} = await import('node-llama-cpp');
  // One thread: the test machines are shared, and thread contention costs far more than it gains on a tiny model.
  const llama = await getLlama({
    build: 'never',
    gpu: false,
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
    maxThreads: 1,
  });
  const model = await llama.loadModel({modelPath});
  const context = await model.createContext({contextSize: 4096, threads: 1});
  const sequence = context.getSequence();
  let queue: Promise<unknown> = Promise.resolve();

  const generate = async (body: Parameters<LlamaChat['chat']>[0]): Promise<RawReply> => {
    await sequence.clearHistory();
    const prompt = `${(body.messages ?? []).map((m) => `${m.role}: ${m.content}`).join('\n\n')}\n\nassistant: `;
    const tokens = model.tokenize(prompt);
    const grammar =
      body.format === undefined
        ? undefined
        : await llama.createGrammarForJsonSchema(
            body.format as Parameters<typeof llama.createGrammarForJsonSchema>[0],
          );
    const grammarEvaluationState =
      grammar === undefined ? undefined : new LlamaGrammarEvaluationState({model, grammar});
    const top = body.top_logprobs ?? 0;
    const logprobs: RawReply['raw']['logprobs'] = [];
    let content = '';
    let last = tokens.slice(-1);
    for await (const output of sequence.evaluateWithMetadata(
      tokens,
      {probabilities: true},
      // No top-k, top-p or min-p truncation: the probabilities are the model's distribution over what the grammar
      // allows (Ollama reports log-probabilities of the model's distribution too, not of a truncated sampler).
      {
        temperature: body.options?.temperature ?? 1,
        topK: 0,
        topP: 1,
        minP: 0,
        ...(grammarEvaluationState === undefined ? {} : {grammarEvaluationState}),
      },
    )) {
      if (model.isEogToken(output.token)) break;
      const text = model.detokenize([output.token], false, last);
      const candidates = [...output.probabilities.entries()]
        .slice(0, top)
        .map(([token, p]) => ({token: model.detokenize([token], false, last), logprob: Math.log(p)}));
      logprobs.push({
        token: text,
        logprob: Math.log(output.probabilities.get(output.token) ?? 0),
        top_logprobs: candidates,
      });
      content += text;
      last = [output.token];
      if (logprobs.length >= maxTokens || isCompleteJson(content)) break;
    }
    return {raw: {content, logprobs, promptEvalCount: tokens.length, evalCount: logprobs.length}};
  };

  return {
    chat: (body) => {
      const next = queue.then(() => generate(body));
      queue = next.catch(() => {});
      return next;
    },
    close: async () => {
      await queue;
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
