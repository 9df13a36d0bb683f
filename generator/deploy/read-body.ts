// The bytes of a file of the build as a CDN's static layer gives them (Cloudflare's assets binding,
// Netlify's context.next()), read with a bound. Neither lets the function read part of a file, so
// a file is read whole: one whose stated length is over the bound is not read at all, and a body
// of no stated length is read no further than the bound. Runtime-free: web streams only.

/** The body of `res`, or null when it has more than `maxBytes` (then cancelled, not read whole). */
export async function boundedBody(res: Response, maxBytes: number): Promise<Uint8Array | null> {
  const stated = Number(res.headers.get('content-length') ?? Number.NaN);
  if (stated > maxBytes || res.body === null) {
    await res.body?.cancel();
    return stated > maxBytes ? null : new Uint8Array(0);
  }
  // A stated length within the bound: the runtime's own whole read, the cheapest.
  if (Number.isSafeInteger(stated)) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    return bytes.length > maxBytes ? null : bytes;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}
