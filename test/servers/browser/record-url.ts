// A BROWSER command for tests: `node record-url.ts <file> <url>` writes the URL it was asked to open to <file>
// and exits 0, as a browser launcher that hands the page to a running browser would.
import {writeFileSync} from 'node:fs';

const [file, url] = process.argv.slice(2);
if (file === undefined || url === undefined) {
  process.stderr.write('usage: record-url.ts <file> <url>\n');
  process.exit(2);
}
writeFileSync(file, url);
