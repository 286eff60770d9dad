/** The file and identifier names a wrapper takes from its `mcp.servers` key. */
import {StratosError} from '../../errors/index.ts';

/** The identifiers a wrapper derives from its server key. */
export interface ServerTypeNames {
  /** PascalCase of the key: `my-api` becomes `MyApi`. */
  pascalName: string;
  /** The exported interface of the server object, `<Pascal>Server`. */
  interfaceName: string;
  /** The default-exported factory, `create<Pascal>`. */
  factoryName: string;
}

/**
 * The file name of a server's wrapper inside `generated/mcp/`: the readable server key itself, so workflow code
 * imports `./generated/mcp/<server>.js`.
 *
 * @throws StratosError `STRATOS_MCP_SERVER_NAME_INVALID` when the key cannot be a single file name.
 * @example
 * wrapperFileName('github'); // 'github.ts'
 */
export function wrapperFileName(serverName: string): string {
  assertServerName(serverName);
  return `${serverName}.ts`;
}

/**
 * The interface and factory names of a server: ASCII letters and digits of each word, first letter upper-cased.
 * A key that yields no word, or starts with a digit, is prefixed with `Mcp` to stay an identifier.
 *
 * @throws StratosError `STRATOS_MCP_SERVER_NAME_INVALID` when the key cannot be a single file name.
 * @example
 * serverTypeNames('my-api').interfaceName; // 'MyApiServer'
 */
export function serverTypeNames(serverName: string): ServerTypeNames {
  assertServerName(serverName);
  const words = serverName.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  let pascalName = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  if (pascalName === '' || /^[0-9]/.test(pascalName)) pascalName = `Mcp${pascalName}`;
  return {pascalName, interfaceName: `${pascalName}Server`, factoryName: `create${pascalName}`};
}

/**
 * Fails unless the key can name one file in `generated/mcp/`.
 *
 * @throws StratosError `STRATOS_MCP_SERVER_NAME_INVALID`.
 */
export function assertServerName(serverName: string): void {
  // Path separators or dot segments would write the wrapper outside generated/mcp/; control characters break
  // file systems and the quoted server key in the wrapper.
  const unusable =
    serverName === '' ||
    serverName === '.' ||
    serverName === '..' ||
    [...serverName].some((character) => character === '/' || character === '\\' || character < ' ');
  if (unusable) {
    throw new StratosError(
      'STRATOS_MCP_SERVER_NAME_INVALID',
      `The MCP server key ${JSON.stringify(serverName)} cannot name a wrapper file in generated/mcp/. ` +
        'Rename it in mcp.servers of workflow.yaml to a key without slashes or control characters.',
      {details: {serverName}},
    );
  }
}
