// Checks HTTP answers against the site's own OpenAPI document (/api/v1/schema): the path, method
// and status must be described there, the headers it requires must be present with the values it
// allows, and a JSON body must validate (ajv, JSON Schema 2020-12, formats checked). The contract
// suite runs every answer it sees through this, so the document cannot drift from the answers.

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export is the function under ESM interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Doc = Record<string, unknown>;

interface Template {
  path: string;
  regex: RegExp;
  params: Array<{ name: string; validate: ValidateFunction; integer: boolean }>;
  literalLength: number;
}

export interface OpenApiChecker {
  /** What is wrong with one answer, by the document; empty when nothing. */
  check(method: string, url: string, status: number, headers: Headers, body: string): string[];
  /** The path template a URL matches, or null when the document names no such path. */
  template(url: string): string | null;
  /** How many answers were checked, by `METHOD template status`. */
  readonly seen: ReadonlyMap<string, number>;
}

const DOC_ID = 'urn:pepys:openapi';
const asDoc = (v: unknown): Doc => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Doc) : {});

/** Ajv for the document: its component schemas as `$defs` of one schema, references rewritten. */
export function openApiAjv(doc: unknown): { ajv: Ajv2020; compile: (schema: unknown) => ValidateFunction } {
  const rewrite = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, $defs: rewrite(asDoc(asDoc(doc).components).schemas) } as Doc);
  const cache = new Map<string, ValidateFunction>();
  return {
    ajv,
    compile: (schema) => {
      const key = JSON.stringify(schema);
      let v = cache.get(key);
      if (v === undefined) {
        v = ajv.compile(rewrite(schema) as Doc);
        cache.set(key, v);
      }
      return v;
    },
  };
}

/** Follows a local `$ref` of the document (components.responses, .parameters, .headers). */
function resolve(doc: Doc, value: unknown): Doc {
  let v = asDoc(value);
  for (let i = 0; typeof v.$ref === 'string' && i < 10; i++) {
    const parts = (v.$ref as string).replace(/^#\//, '').split('/');
    let target: unknown = doc;
    for (const p of parts) target = asDoc(target)[p.replaceAll('~1', '/').replaceAll('~0', '~')];
    v = asDoc(target);
  }
  return v;
}

const describeErrors = (v: ValidateFunction) =>
  (v.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
    .join('; ');

export function openApiChecker(document: unknown): OpenApiChecker {
  const doc = asDoc(document);
  const { compile } = openApiAjv(doc);
  const paths = asDoc(doc.paths);
  const templates: Template[] = Object.entries(paths).map(([path, item]) => {
    const params = ((asDoc(item).parameters as unknown[] | undefined) ?? []).map((p) => resolve(doc, p));
    const names: string[] = [];
    const source = path.split(/(\{[^}]+\})/).map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (m === null) return part.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
      names.push(m[1] as string);
      return '([^/]+)';
    });
    return {
      path,
      regex: new RegExp(`^${source.join('')}$`),
      params: names.map((name) => {
        const p = params.find((q) => q.name === name);
        const schema = resolve(doc, asDoc(p?.schema));
        return { name, validate: compile(p?.schema ?? {}), integer: schema.type === 'integer' };
      }),
      literalLength: path.replace(/\{[^}]+\}/g, '').length,
    };
  });

  const template = (url: string): string | null => {
    // The root also answers with a slash, as its description says (a path ending in a slash is
    // not one linters let a document name).
    const pathname = new URL(url).pathname;
    const path = pathname === '/api/v1/' ? '/api/v1' : pathname;
    let best: Template | null = null;
    for (const t of templates) {
      const m = t.regex.exec(path);
      if (m === null) continue;
      const ok = t.params.every((p, i) => {
        const raw = m[i + 1] as string;
        return p.validate(p.integer && /^[0-9]+$/.test(raw) ? Number(raw) : raw);
      });
      if (ok && (best === null || t.literalLength > best.literalLength)) best = t;
    }
    return best?.path ?? null;
  };

  // What the document says of a 404 (an unknown path is one too).
  const notFound = resolve(doc, asDoc(asDoc(doc.components).responses).NotFound);
  const errorSchema = compile(asDoc(asDoc(asDoc(notFound.content)['application/json']).schema));
  const refusedSchema = compile({
    allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { status_code: { const: 405 } } }],
  });
  const seen = new Map<string, number>();

  const check = (method: string, url: string, status: number, headers: Headers, body: string): string[] => {
    // Outside /api is not the API (a CDN may serve the build's other files there).
    const pathname = new URL(url).pathname;
    if (pathname !== '/api' && !pathname.startsWith('/api/')) return [];
    const problems: string[] = [];
    const at = `${method} ${url} → ${status}`;
    const path = template(url);
    const key = `${method} ${path ?? '(no path of the document)'} ${status}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    if (path === null) {
      // Paths the document does not name: the contract's 404, for every method.
      if (status !== 404) problems.push(`${at}: the document names no such path, yet the status is not 404`);
      const json = (headers.get('content-type') ?? '').startsWith('application/json');
      if (method !== 'HEAD' && json && !errorSchema(JSON.parse(body)))
        problems.push(`${at}: error body: ${describeErrors(errorSchema)}`);
      return problems;
    }
    const operation = asDoc(asDoc(paths[path])[method.toLowerCase()]);
    if (Object.keys(operation).length === 0) {
      // A method the document does not offer: refused, as its description says, with 405 and
      // the error body (the refused methods are not operations, so that clients offer none).
      if (status !== 405 || !/\b405 Method Not Allowed\b/.test(String(asDoc(doc.info).description)))
        return [`${at}: the document has no ${method} on ${path}`];
      if (headers.get('allow') !== 'GET, HEAD, OPTIONS') problems.push(`${at}: Allow is not GET, HEAD, OPTIONS`);
      const json = (headers.get('content-type') ?? '').startsWith('application/json');
      if (method !== 'HEAD' && json && !refusedSchema(JSON.parse(body)))
        problems.push(`${at}: error body: ${describeErrors(refusedSchema)}`);
      return problems;
    }
    const response = resolve(doc, asDoc(operation.responses)[String(status)]);
    if (Object.keys(response).length === 0)
      return [`${at}: the document gives ${method} ${path} no ${status} response`];
    for (const [name, h] of Object.entries(asDoc(response.headers))) {
      const spec = resolve(doc, h);
      const value = headers.get(name);
      if (value === null) {
        if (spec.required === true) problems.push(`${at}: no ${name} header, which the document requires`);
        continue;
      }
      const v = compile(spec.schema ?? {});
      if (!v(value)) problems.push(`${at}: header ${name}: ${JSON.stringify(value)}: ${describeErrors(v)}`);
    }
    const content = asDoc(response.content);
    const type = (headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const bodiless = method === 'HEAD' || status === 304;
    if (bodiless) {
      if (body !== '') problems.push(`${at}: a body where none is sent`);
      return problems;
    }
    // The HTML page of a JSON answer (for browsers, or format=api) is described in words only.
    if (type === 'text/html' && content['application/json'] !== undefined) return problems;
    const media = asDoc(content[type]);
    if (Object.keys(media).length === 0)
      return [...problems, `${at}: the document gives no ${type} body for this response`];
    if (type !== 'application/json') return problems;
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return [...problems, `${at}: the body is not JSON`];
    }
    const v = compile(media.schema ?? {});
    if (!v(data)) problems.push(`${at}: body: ${describeErrors(v)}`);
    return problems;
  };
  return { check, template, seen };
}
