// One content file read and parsed: the unit of work that the main thread, the parse workers and
// the watch mode share. Pure apart from the one read; every problem stays with its file.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedEntry, parseEntryFile } from './parse-entry.ts';
import { type ParsedTopic, parseTopicFile } from './parse-topic.ts';
import type { Problem } from './problems.ts';

export type FileKind = 'entry' | 'topic';

export interface FileJob {
  kind: FileKind;
  /** Relative to the content directory, `/`-separated. */
  file: string;
}

export type ParsedFile =
  | { kind: 'entry'; parsed: ParsedEntry | null; problems: Problem[] }
  | { kind: 'topic'; parsed: ParsedTopic | null; problems: Problem[] };

/** Parses the text of one file (no I/O). */
export function parseText(job: FileJob, text: string, defaultModified: string): ParsedFile {
  const problems: Problem[] = [];
  return job.kind === 'entry'
    ? { kind: 'entry', parsed: parseEntryFile(text, job.file, defaultModified, problems), problems }
    : { kind: 'topic', parsed: parseTopicFile(text, job.file, defaultModified, problems), problems };
}

export function parseContentFile(contentDir: string, job: FileJob, defaultModified: string): ParsedFile {
  return parseText(job, readFileSync(join(contentDir, job.file), 'utf8'), defaultModified);
}
