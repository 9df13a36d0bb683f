// The parameters of the OpenAPI document (openapi.ts): the query's from the parameter table
// (core/parameters.ts), the paths' own (a record's key, a download's name), each with an example
// of this build.

import { DOWNLOAD_TYPES } from '../core/files.ts';
import type { Model } from '../core/model.ts';
import { openApiParameter, PARAMETERS } from '../core/parameters.ts';
import { exampleYear } from './openapi-responses.ts';
import { type Doc, SLUG, schemaRef } from './openapi-schemas.ts';

export function parameters(model: Model): Doc {
  const first = {
    date: model.entries[0]?.date ?? model.config.period.start,
    slug: model.categories[0]?.slug ?? 'people',
    id: model.topics[0]?.id ?? 1,
  };
  // The query's parameters from the parameter table (core/parameters.ts), `format` first.
  const context = { year: exampleYear(model.config), topicId: first.id, categorySlug: first.slug };
  const query = Object.fromEntries(PARAMETERS.map((p) => [p.name, openApiParameter(p, context)]));
  return {
    format: query.format,
    name: {
      name: 'name',
      in: 'path',
      required: true,
      description: `The name of a file of the whole data, as /api/v1/downloads lists it: ${[...DOWNLOAD_TYPES.keys()].map((n) => `\`${n}\``).join(', ')}. Any other: 404 Not found.`,
      schema: { type: 'string', pattern: '^[-a-z0-9.]+$' },
      example: 'diary.sqlite',
    },
    ...query,
    date: {
      name: 'date',
      in: 'path',
      required: true,
      description:
        'The date of an entry. A well-formed date without an entry: 404 No Entry matches; anything else: 404 Not found.',
      schema: schemaRef('Date'),
      example: first.date,
    },
    slug: {
      name: 'slug',
      in: 'path',
      required: true,
      description: 'The slug of a category.',
      schema: { type: 'string', pattern: `^${SLUG}$` },
      example: first.slug,
    },
    id: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'The id of a topic (leading zeros allowed: `007` is topic 7).',
      schema: { type: 'integer', minimum: 0 },
      example: first.id,
    },
  };
}
