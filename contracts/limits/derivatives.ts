// Distinct derivatives a file may have: beyond this a URL-minting loop is refused, not computed.
// The edge enforces it; the console plans its PDF page pictures within it.
export const MAX_DERIVATIVES_PER_FILE = 50;
