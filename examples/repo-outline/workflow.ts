import {join} from 'node:path';
import {workflow} from '@stratoscli/stratos';
import {z} from 'zod';
import createFiles from './generated/mcp/files.js';

export default workflow({
  input: z.strictObject({
    folder: z.string().default('src').describe('Folder to outline, relative to the repository root'),
  }),
  output: z.object({
    folder: z.string().describe('The absolute folder that was outlined'),
    folders: z.array(z.string()).describe('Subfolder names'),
    files: z
      .array(
        z.object({
          name: z.string().describe('File name'),
          summary: z.string().describe('First non-blank line of the file'),
        }),
      )
      .describe('TypeScript and Markdown files with their first line'),
  }),
  async run({folder}) {
    const files = await createFiles();
    // The server reports the folders it may read; the first one is the repository root it was started with.
    const allowed = (await files.list_allowed_directories({})).structuredContent.content;
    const root = allowed.split('\n').find((line) => line.startsWith('/')) ?? '';
    const path = join(root, folder);
    const listing = (await files.list_directory({path})).structuredContent.content.split('\n');
    const folders = listing.filter((line) => line.startsWith('[DIR] ')).map((line) => line.slice(6));
    const names = listing
      .filter((line) => line.startsWith('[FILE] '))
      .map((line) => line.slice(7))
      .filter((name) => /\.(ts|md)$/.test(name));
    // Concurrent calls on one connection: one request per file.
    const heads = await Promise.all(
      names.map(async (name) => {
        const text = (await files.read_text_file({path: join(path, name), head: 8})).structuredContent
          .content;
        const summary = text
          .split('\n')
          .map((line) =>
            line
              .replace(/^\s*(\/\*\*?|\*\/?|\/\/|#+)\s?/, '')
              .replace(/\s*\*\/\s*$/, '')
              .trim(),
          )
          .find((line) => line !== '');
        return {name, summary: summary ?? ''};
      }),
    );
    return {folder: path, folders, files: heads};
  },
});
