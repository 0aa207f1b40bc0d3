// The largest file an overlay (`l_`) may be: the edge holds it whole and sends it ahead of the
// source, so it stays within what the isolate holds of an original it decodes itself. A
// watermark is a logo, a few kilobytes to a few hundred.
export const OVERLAY_MAX_BYTES = 4 * 1024 * 1024;
