// The headers every page the service serves to a browser carries: the console (static assets, through
// the `_headers` file scripts/build-assets.ts writes) and the pages the worker renders (/docs and the
// problem pages). Scripts only from this origin, calls only to this origin, no framing, no sniffing.

/** Where the console's presigned uploads go in production: R2's S3 endpoint (locally it is this origin). */
const R2_UPLOAD_HOSTS = "https://*.r2.cloudflarestorage.com";

type Directives = Record<string, string>;

const PAGE_DIRECTIVES: Directives = {
  "default-src": "'self'",
  "script-src": "'self'",
  "style-src": "'self'",
  // Results and page pictures are shown from blob: URLs the console makes of fetched bytes.
  "img-src": "'self' blob: data:",
  "connect-src": `'self' ${R2_UPLOAD_HOSTS}`,
  "object-src": "'none'",
  "base-uri": "'none'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
};

function policyText(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join("; ");
}

function headersWith(directives: Directives): Record<string, string> {
  return {
    "Content-Security-Policy": policyText(directives),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}

/** The console's headers: its page, script and stylesheet are files, nothing is inline. */
export const CONSOLE_SECURITY_HEADERS = headersWith(PAGE_DIRECTIVES);

/**
 * A rendered page's headers. Scalar's page starts from an inline script and style, allowed by this
 * request's nonce alone; its bundle then sets styles at run time, which needs inline styles.
 */
export function renderedPageSecurityHeaders(nonce: string): Record<string, string> {
  return headersWith({
    ...PAGE_DIRECTIVES,
    "script-src": `'self' 'nonce-${nonce}'`,
    "style-src": `'self' 'unsafe-inline'`,
  });
}
