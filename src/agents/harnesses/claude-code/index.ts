/**
 * The Claude Code adapter, over @anthropic-ai/claude-agent-sdk: the SDK is imported when a session starts, and a
 * session is one streaming query (./session.ts). The folder follows the adapter template (AGENTS.md, "How to add a
 * harness adapter"): ./native-options.ts, ./translate-events.ts (with ./spawned-work.ts), ./tool-hooks.ts (native
 * PreToolUse / PostToolUse callbacks, awaited by the binary), ./message-queue.ts (the streaming prompt),
 * ./tools.ts, ./authentication.ts, ./sdk.ts.
 */
import type {AgentHarness} from '../../harness.ts';
import {importHarnessSdk} from '../../harness-kit/import-harness-sdk.ts';
import {claudeCodeSdk} from './sdk.ts';
import {ClaudeCodeSession} from './session.ts';

export const claudeCodeHarness: AgentHarness = {
  id: 'claude-code',
  continuesConversations: true,
  async createSession(options) {
    const sdk = await importHarnessSdk(
      'claude-code',
      claudeCodeSdk,
      () => import('@anthropic-ai/claude-agent-sdk'),
    );
    return new ClaudeCodeSession(sdk.query, options);
  },
};
