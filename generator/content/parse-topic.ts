// One topic file: a YAML mapping.

import type { Topic } from '../core/model.ts';
import { TOPIC_KINDS, type TopicKind } from '../core/types.ts';
import {
  asMapping,
  count,
  type FieldSource,
  lineOf,
  nullableNumber,
  nullableString,
  nullableTimestamp,
  optionalString,
  problem,
  rejectUnknownKeys,
  requiredString,
  stringList,
  timestamp,
} from './fields.ts';
import type { Problem } from './problems.ts';
import { parseYaml } from './yaml-text.ts';

const TOPIC_FIELDS = [
  'id',
  'title',
  'orderTitle',
  'kind',
  'categories',
  'wheatleyHTML',
  'tooltipText',
  'wikipediaURL',
  'thumbnailURL',
  'annotationCount',
  'lastAnnotationTime',
  'latitude',
  'longitude',
  'zoom',
  'shape',
  'lastModifiedTime',
];

export interface ParsedTopic {
  file: string;
  idLine: number;
  categoriesLine: number;
  /** Whether the file gives these itself (else they are derived: build-model.ts topicOf). */
  kindGiven: boolean;
  orderTitleGiven: boolean;
  topic: Topic;
}

export function parseTopicFile(
  text: string,
  file: string,
  defaultModified: string,
  problems: Problem[],
): ParsedTopic | null {
  const before = problems.length;
  const data = asMapping(parseYaml(text, file, 1, problems));
  if (data === null) {
    if (problems.length === before)
      problems.push({ file, line: 1, message: 'a topic file must be a YAML mapping (key: value lines)' });
    return null;
  }
  const src: FieldSource = { file, text, firstLine: 1, data, problems };
  rejectUnknownKeys(src, TOPIC_FIELDS);
  const id = data.id;
  let validId = 0;
  if (id === undefined) problems.push({ file, line: 1, message: 'missing required field "id"' });
  else if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
    problem(src, 'id', `"id" must be a positive whole number, not ${JSON.stringify(id)}`);
  else validId = id;
  const title = requiredString(src, 'title');
  let kind: TopicKind = 'default';
  if (data.kind !== undefined) {
    // The list's own string, not the file's copy of it: one for every topic of that kind.
    const known = TOPIC_KINDS.find((k) => k === data.kind);
    if (known !== undefined) kind = known;
    else problem(src, 'kind', `"kind" must be one of ${TOPIC_KINDS.join(', ')}, not ${JSON.stringify(data.kind)}`);
  }
  const topic: Topic = {
    id: validId,
    title: title ?? '',
    orderTitle: optionalString(src, 'orderTitle', title ?? ''),
    kind,
    wheatleyHTML: optionalString(src, 'wheatleyHTML', '').trim(),
    tooltipText: optionalString(src, 'tooltipText', ''),
    wikipediaURL: nullableString(src, 'wikipediaURL'),
    thumbnailURL: nullableString(src, 'thumbnailURL'),
    annotationCount: count(src, 'annotationCount'),
    lastAnnotationTime: nullableTimestamp(src, 'lastAnnotationTime'),
    latitude: nullableNumber(src, 'latitude'),
    longitude: nullableNumber(src, 'longitude'),
    zoom: nullableNumber(src, 'zoom'),
    shape: optionalString(src, 'shape', ''),
    categorySlugs: stringList(src, 'categories'),
    lastModifiedTime: timestamp(src, 'lastModifiedTime', defaultModified),
  };
  if (validId === 0 || title === null) return null;
  return {
    file,
    idLine: lineOf(src, 'id'),
    categoriesLine: lineOf(src, 'categories'),
    kindGiven: data.kind !== undefined,
    orderTitleGiven: data.orderTitle !== undefined && data.orderTitle !== null,
    topic,
  };
}
