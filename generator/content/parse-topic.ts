// One topic file: a YAML mapping.

import type { Topic } from '../core/model.ts';
import { TOPIC, TOPIC_FILE_KEYS, TOPIC_KINDS, type TopicKind } from '../core/record-fields.ts';
import {
  asMapping,
  type FieldSource,
  lineOf,
  optionalString,
  problem,
  readFields,
  rejectUnknownKeys,
  requiredString,
} from './fields.ts';
import type { Problem } from './problems.ts';
import { parseYaml } from './yaml-text.ts';

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
  rejectUnknownKeys(src, TOPIC_FILE_KEYS);
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
    // The rest as the file gives them (record-fields.ts TOPIC).
    ...readFields(src, TOPIC, defaultModified),
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
