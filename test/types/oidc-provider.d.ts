// oidc-provider ships no type declarations: the test OAuth servers use it loosely typed. Callbacks get `any`
// parameters, as they would from an untyped JavaScript API.
declare module 'oidc-provider' {
  // biome-ignore lint/suspicious/noExplicitAny: the provider's callbacks are untyped.
  type Callback = (...args: any[]) => any;
  interface Configuration {
    issueRefreshToken?: Callback;
    findAccount?: Callback;
    interactions?: {url?: Callback; [key: string]: unknown};
    renderError?: Callback;
    [key: string]: unknown;
  }
  class Provider {
    constructor(issuer: string, configuration?: Configuration);
    on(event: string, listener: Callback): this;
    use(middleware: Callback): void;
    // biome-ignore lint/suspicious/noExplicitAny: the rest of the provider's API is untyped.
    [member: string]: any;
  }
  export default Provider;
}
