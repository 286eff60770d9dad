// The BROWSER of the conformance auth client: the conformance authorization server approves without a login
// page, so "the browser" follows the redirects of the authorization URL until the loopback callback answers.
let url = process.argv.at(-1)!;
for (let hop = 0; hop < 10; hop++) {
  const response = await fetch(url, {redirect: 'manual'});
  const location = response.headers.get('location');
  await response.body?.cancel();
  if (location === null || response.status < 300 || response.status >= 400) process.exit(response.ok ? 0 : 1);
  url = new URL(location, url).href;
}
process.exit(1);
