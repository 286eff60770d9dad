// A BROWSER command that never signs in: it reads redirect_uri and state from the authorization URL and calls
// the loopback callback itself, with a wrong state (`--mode=wrong-state`) or an error (`--mode=error`).
const args = process.argv.slice(2);
const mode = args.find((arg) => arg.startsWith('--mode='))?.slice(7) ?? 'wrong-state';
const url = new URL(args.find((arg) => !arg.startsWith('--'))!);
const redirect = new URL(url.searchParams.get('redirect_uri')!);
if (mode === 'error') {
  redirect.searchParams.set('error', 'access_denied');
  redirect.searchParams.set('error_description', 'Denied by the test');
  redirect.searchParams.set('state', url.searchParams.get('state')!);
} else {
  redirect.searchParams.set('code', 'not-a-real-code');
  redirect.searchParams.set('state', 'not-the-issued-state');
}
const response = await fetch(redirect);
await response.text();
process.exit(0);
