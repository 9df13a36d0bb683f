// Netlify's edge function as `npm run build -- --target netlify` generates it, served over HTTP by
// Deno (the runtime Netlify runs it in), for the heavy tests that damage the published files
// (test/heavy/pack-damage.test.ts). Its context.next() is played by the published files, each
// streamed from disk with its length, as Netlify's static layer sends them:
//
//   deno run --no-config --allow-read --allow-net=127.0.0.1 tools/netlify/deno-edge-server.ts <entry> <public>
//
// It prints the port it listens on (on 127.0.0.1), then serves until killed.

// Deno's global, described for the Node type-checker (tsc) that also reads this file.
declare const Deno: {
  args: string[];
  open(path: string): Promise<{
    readable: ReadableStream<Uint8Array>;
    stat(): Promise<{ size: number; isFile: boolean }>;
    close(): void;
  }>;
  serve(
    options: { hostname: string; port: number; onListen(addr: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const [entry, publicDir] = Deno.args;
if (entry === undefined || publicDir === undefined) throw new Error('usage: deno-edge-server.ts <entry> <public>');
const api = (
  (await import(new URL(`file://${entry}`).href)) as {
    default: (request: Request, context: { next(request: Request): Promise<Response> }) => Promise<Response>;
  }
).default;

async function published(request: Request): Promise<Response> {
  const path = `${publicDir}${decodeURIComponent(new URL(request.url).pathname)}`;
  try {
    const file = await Deno.open(path);
    const stat = await file.stat();
    if (!stat.isFile) {
      file.close();
      return new Response('Not Found', { status: 404 });
    }
    return new Response(file.readable, { headers: { 'Content-Length': String(stat.size) } });
  } catch {
    return new Response('Not Found', { status: 404 });
  }
}

Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(port) }, (request) =>
  api(request, { next: published }),
);

// A module (for the top-level await), as Deno runs it.
export {};
