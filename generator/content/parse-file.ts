// One content file read and parsed: the unit of work that a build and the watch mode share.
// Pure apart from the one read; every problem stays with its file, and no file, whatever it is,
// makes this throw (see read-file.ts).

import type { SiteConfig } from '../core/model.ts';
import { type ParsedEntry, parseEntryFile } from './parse-entry.ts';
import { type ParsedTopic, parseTopicFile } from './parse-topic.ts';
import type { Problem } from './problems.ts';
import { type ReadOutcome, readContentFile } from './read-file.ts';

export type FileKind = 'entry' | 'topic';

export interface FileJob {
  kind: FileKind;
  /** Relative to the content directory, `/`-separated. */
  file: string;
}

interface FileFacts {
  /**
   * True when the file was removed between being listed and being read: it is then treated as
   * never listed (by a one-shot build and the watch mode alike), not as a problem.
   */
  gone: boolean;
  /** What was read (read-file.ts signatureAt): the watch mode's rescans compare it. */
  signature: string;
}

export type ParsedFile =
  | ({ kind: 'entry'; parsed: ParsedEntry | null; problems: Problem[] } & FileFacts)
  | ({ kind: 'topic'; parsed: ParsedTopic | null; problems: Problem[] } & FileFacts);

/** Parses the text of one file (no I/O). */
function parseText(job: FileJob, text: string, config: SiteConfig, signature = ''): ParsedFile {
  const problems: Problem[] = [];
  return job.kind === 'entry'
    ? {
        kind: 'entry',
        parsed: parseEntryFile(text, job.file, config, problems),
        problems,
        gone: false,
        signature,
      }
    : {
        kind: 'topic',
        parsed: parseTopicFile(text, job.file, config.lastModifiedTime, problems),
        problems,
        gone: false,
        signature,
      };
}

/** Reads (unless `read` is what reading it gave) and parses one file. */
export function parseContentFile(
  contentDir: string,
  job: FileJob,
  config: SiteConfig,
  read: ReadOutcome = readContentFile(contentDir, job.file),
): ParsedFile {
  if (read.ok) return parseText(job, read.value.text, config, read.value.signature);
  const { error } = read;
  return error.gone
    ? { kind: job.kind, parsed: null, problems: [], gone: true, signature: '' }
    : { kind: job.kind, parsed: null, problems: [error.problem], gone: false, signature: error.signature };
}
