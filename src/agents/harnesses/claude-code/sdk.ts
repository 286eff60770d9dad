/**
 * Claude Code's SDK: the optional peer dependency that brings it (and, through it, the binary) and its install
 * command. Plain data: the registry record and the adapter's SDK import both read it.
 */
export const claudeCodeSdk = {
  title: 'Claude Code',
  sdkPackage: '@anthropic-ai/claude-agent-sdk',
  install: 'npm install @anthropic-ai/claude-agent-sdk',
} as const;
