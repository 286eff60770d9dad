/**
 * The Agent Client Protocol SDK: the optional peer dependency the adapter speaks ACP through, and its install
 * command. The agent process itself is whatever `command` names (`opencode acp`, `gemini --experimental-acp`, ...).
 * Plain data: the registry record and the adapter's SDK import both read it.
 */
export const acpSdk = {
  title: 'ACP agent',
  sdkPackage: '@agentclientprotocol/sdk',
  install: 'npm install @agentclientprotocol/sdk',
} as const;
