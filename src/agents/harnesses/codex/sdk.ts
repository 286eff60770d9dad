/**
 * Codex's SDK: the optional peer dependency that brings it (and, through it, the binary) and its install
 * command. Plain data: the registry record and the adapter's SDK import both read it.
 */
export const codexSdk = {
  title: 'Codex',
  sdkPackage: '@openai/codex-sdk',
  install: 'npm install @openai/codex-sdk',
} as const;
