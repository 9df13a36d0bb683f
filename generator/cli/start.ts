// npm start: build content/ for this server's own origin (unless --no-build), then serve it.

import { build } from '../build.ts';
import { ContentError } from '../content/problems.ts';
import { createApiServer } from '../server/server.ts';
import { CONFIG_HELP, CONFIG_OPTIONS, configOverrides, fail, parseOrExit } from './options.ts';

const { values } = parseOrExit({
  options: {
    ...CONFIG_OPTIONS,
    port: { type: 'string', default: process.env.PORT ?? '8888' },
    host: { type: 'string', default: '127.0.0.1' },
    'no-build': { type: 'boolean', default: false },
    watch: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`usage: npm start -- [options]

  --port <n>                 port to listen on (default: 8888, or $PORT)
  --host <address>           address to listen on (default: 127.0.0.1)
  --no-build                 serve the output directory as it is
  --watch                    rebuild what changed after every edit while serving
${CONFIG_HELP}
`);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${values.port}`);
const host = values.host as string;
const outDir = values.out as string;
const hostPart = host.includes(':') ? `[${host}]` : host;

if (values['no-build'] && values.watch) fail('--no-build and --watch exclude each other');
if (!values['no-build']) {
  // A mirror links to itself: every URL in its bodies points at the origin it is served from.
  const overrides = { apiOrigin: `http://${hostPart}:${port}`, ...configOverrides(values) };
  const contentDir = values.content as string;
  try {
    if (values.watch) {
      // The server follows each rebuild: it reloads the site index whenever a swap replaces it.
      const { describeRebuild, startWatching } = await import('../watch/watch.ts');
      await startWatching({
        contentDir, outDir, overrides, env: {},
        onRebuild: (report, paths) => {
          const line = describeRebuild(report, paths, contentDir, outDir);
          (report.ok ? process.stdout : process.stderr).write(`[${new Date().toLocaleTimeString()}] ${line}\n`);
        },
      });
    } else {
      await build({ contentDir, outDir, quiet: values.quiet === true, overrides, env: {} });
    }
  } catch (err) {
    if (err instanceof ContentError) {
      process.stderr.write(`\nerror: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

const server = createApiServer({ publicDir: outDir });
server.listen(port, host, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address !== null ? address.port : port;
  process.stdout.write(`Serving ${outDir} at http://${hostPart}:${actual}/api/v1 (Ctrl-C to stop)\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
