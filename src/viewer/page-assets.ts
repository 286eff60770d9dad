/**
 * The page's static files, all shipped in the package: `index.html` and `style.css` from `src/viewer/assets/`,
 * the compiled page scripts from `dist/viewer/page/`. Both folders sit two levels under the package root, whether
 * this module runs from `src/viewer/` or `dist/viewer/`. Only these files are ever served: no request names a
 * path on disk.
 */
import {readdir, readFile} from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import {StratosError} from '../errors/index.ts';

export interface PageAsset {
  body: Buffer;
  contentType: string;
}

const packageRoot = new URL('../../', import.meta.url);

/** Reads every asset once; keyed by the URL path under the token (`''` is the page itself). */
export async function loadPageAssets(): Promise<Map<string, PageAsset>> {
  const assets = new Map<string, PageAsset>();
  const html = await readFile(new URL('src/viewer/assets/index.html', packageRoot));
  assets.set('', {body: html, contentType: 'text/html; charset=utf-8'});
  assets.set('style.css', {
    body: await readFile(new URL('src/viewer/assets/style.css', packageRoot)),
    contentType: 'text/css; charset=utf-8',
  });
  const scripts = new URL('dist/viewer/page/', packageRoot);
  let names: string[];
  try {
    names = (await readdir(scripts)).filter((name) => /^[a-z][a-z-]*\.js$/.test(name));
  } catch (error) {
    throw new StratosError(
      'STRATOS_VIEWER_ASSETS_MISSING',
      `The runs page scripts are missing from ${fileURLToPath(scripts)} (${(error as Error).message}); build the package with 'npm run build'.`,
      {cause: error},
    );
  }
  for (const name of names) {
    assets.set(name, {
      body: await readFile(new URL(name, scripts)),
      contentType: 'text/javascript; charset=utf-8',
    });
  }
  return assets;
}
