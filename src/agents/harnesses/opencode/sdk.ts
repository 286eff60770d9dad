/**
 * OpenCode's SDK: the optional peer dependency that brings it (and, through it, the binary) and its install
 * command. Plain data: the registry record and the adapter's SDK import both read it.
 */
export const openCodeSdk = {
  title: 'OpenCode',
  sdkPackage: '@opencode-ai/sdk',
  install: 'npm install @opencode-ai/sdk opencode-ai',
} as const;
