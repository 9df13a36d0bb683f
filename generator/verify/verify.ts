// Verifies a mirror: plans every request (checks.ts), determines each expected answer with the
// core's handler over the local output (expected.ts), asks the mirror (http.ts), a bounded
// number at a time, and compares (compare.ts). The library part of `npm run verify`: it prints
// nothing and never exits; the CLI (generator/cli/verify.ts) does that.

import { type ApiRequest, type ApiResponse, handle, splitTarget } from '../core/handler.ts';
import { fail, ok, type Result } from '../core/result.ts';
import { type Check, planChecks } from './checks.ts';
import { compareAnswer, type Difference, noAnswer, noTolerance, type Tolerated } from './compare.ts';
import type { ExpectedSite } from './expected.ts';
import { mirrorClient } from './http.ts';

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_SAMPLE = 100;
const DEFAULT_TIMEOUT_MS = 30_000;

export interface VerifyOptions {
  /** Where to send the requests: the mirror's origin, e.g. https://mirror.example.org. */
  mirror: string;
  /** The expected answers (their API origin is the one the mirror's bodies must link to). */
  expected: ExpectedSite;
  seed: number;
  /** Size of each seeded sample (computed ranges, `.json` spellings); default 100. */
  sample?: number;
  /** Requests in flight at most; default 8. */
  concurrency?: number;
  timeoutMs?: number;
  /** Called after each answer is compared. */
  onProgress?: (progress: VerifyProgress) => void;
}

export interface VerifyProgress {
  done: number;
  total: number;
  differences: number;
}

export interface VerifyReport {
  mirror: string;
  /** The origin the bodies were expected to link to. */
  apiOrigin: string;
  /** Answers compared. */
  checks: number;
  /** HTTP requests made, retries included. */
  requests: number;
  /** In the order of the plan. */
  differences: Difference[];
  tolerated: Tolerated;
  /** What this run could not check, and why. */
  notChecked: string[];
  /** What the differences suggest (e.g. bodies that link to another origin), for the operator. */
  hints: string[];
  seed: number;
  sample: number;
  ms: number;
}

/**
 * Why a mirror could not be verified at all: it does not answer, it is elsewhere, or the local
 * output that says what it should answer lacks a file.
 */
export interface VerifyFailure {
  kind: 'unreachable' | 'redirected' | 'incomplete';
  message: string;
}

/** An arbitrary ETag, for the revalidation that must not match. */
const OTHER_ETAG = '"0000000000000000"';

function apiRequest(method: string, target: string, headers: Readonly<Record<string, string>>): ApiRequest {
  const byName = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, ...splitTarget(target), header: (name) => byName.get(name.toLowerCase()) ?? null };
}

/** The headers to send for a check, and the answer a whole mirror gives to them. */
async function expectation(
  check: Check,
  site: ExpectedSite,
): Promise<{ headers: Record<string, string>; expected: ApiResponse }> {
  const headers = { ...check.headers };
  if (check.revalidate !== undefined) {
    const plain = await handle(apiRequest('GET', check.target, check.headers), site.index, site.read);
    const etag = plain.headers.ETag;
    if (etag !== undefined) {
      headers['If-None-Match'] = { strong: etag, weak: `W/${etag}`, list: `${OTHER_ETAG}, ${etag}`, other: OTHER_ETAG }[
        check.revalidate
      ];
    }
  }
  return { headers, expected: await handle(apiRequest(check.method, check.target, headers), site.index, site.read) };
}

/** The origin of the `entries` URL in a root body, or null if it is not one. */
function linkedOrigin(body: Uint8Array): string | null {
  try {
    const entries = (JSON.parse(new TextDecoder().decode(body)) as { entries?: unknown }).entries;
    return typeof entries === 'string' ? new URL(entries).origin : null;
  } catch {
    return null;
  }
}

/** The file named by the handler's 503 for a file its index lists but the output lacks. */
function lackedFile(expected: ApiResponse): string {
  const detail = new TextDecoder().decode(expected.body);
  return /lacks (\S+),/.exec(detail)?.[1] ?? 'a file';
}

function incompleteOutput(file: string): VerifyFailure {
  return {
    kind: 'incomplete',
    message: `the local output lacks ${file}, which its index lists: build it again, or verify with --content`,
  };
}

/** A request's target on the mirror, for messages. */
const at = (mirror: string, target: string) => `${mirror}${target}`;

export async function verifyMirror(options: VerifyOptions): Promise<Result<VerifyReport, VerifyFailure>> {
  const started = performance.now();
  const { expected: site, seed } = options;
  const mirror = new URL(options.mirror).origin;
  const sample = options.sample ?? DEFAULT_SAMPLE;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sameOrigin = site.builtOrigin === site.index.apiOrigin;
  const checks = planChecks(site.index, { sample, seed, hasSchema: site.hasSchema, downloads: sameOrigin });
  const client = mirrorClient(mirror, { concurrency, timeoutMs });
  const tolerated = noTolerance();
  const results: Difference[][] = new Array(checks.length);
  let done = 0;
  let found = 0;
  // A mirror that went away mid-run: this many unanswered requests in a row end it.
  const giveUpAfter = Math.max(10, 3 * concurrency);
  let unansweredInARow = 0;
  let lastReason = '';
  const hints: string[] = [];
  let incomplete: string | undefined;

  const run = async (i: number): Promise<Difference[]> => {
    const check = checks[i] as Check;
    const { headers, expected } = await expectation(check, site);
    if (expected.status === 503) {
      incomplete ??= lackedFile(expected);
      return [];
    }
    const got = await client.request(check.method, check.target, headers);
    if (!got.ok) {
      unansweredInARow++;
      lastReason = got.error;
      return [noAnswer(check, got.error)];
    }
    unansweredInARow = 0;
    return compareAnswer(check, expected, got.value, tolerated);
  };
  const record = (i: number, differences: Difference[]) => {
    results[i] = differences;
    done++;
    found += differences.length;
    options.onProgress?.({ done, total: checks.length, differences: found });
  };

  try {
    // The root first, alone: a mirror that is not there is one line, not thousands.
    const root = checks[0] as Check;
    const rootExpected = await expectation(root, site);
    if (rootExpected.expected.status === 503) return fail(incompleteOutput(lackedFile(rootExpected.expected)));
    const probe = await client.request(root.method, root.target, root.headers);
    if (!probe.ok) return fail({ kind: 'unreachable', message: `cannot reach ${mirror}: ${probe.error}` });
    const location = probe.value.headers.location;
    if (probe.value.status >= 300 && probe.value.status < 400 && location !== undefined) {
      const there = new URL(location, at(mirror, root.target));
      if (there.origin !== mirror) {
        return fail({
          kind: 'redirected',
          message: `${at(mirror, root.target)} redirects (${probe.value.status}) to ${there.href}: verify ${there.origin} instead`,
        });
      }
    }
    record(0, compareAnswer(root, rootExpected.expected, probe.value, tolerated));
    const linked = linkedOrigin(probe.value.body);
    if (linked !== null && linked !== site.index.apiOrigin) {
      hints.push(
        `the mirror's root links to ${linked}, not ${site.index.apiOrigin}: if its bodies are meant to, verify again with --api-origin ${linked}`,
      );
    }

    let next = 1;
    let gaveUp = false;
    const worker = async () => {
      while (next < checks.length && !gaveUp) {
        const i = next++;
        record(i, await run(i));
        if (unansweredInARow >= giveUpAfter || incomplete !== undefined) gaveUp = true;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    if (incomplete !== undefined) return fail(incompleteOutput(incomplete));
    if (gaveUp) {
      return fail({
        kind: 'unreachable',
        message: `${mirror} stopped answering after ${done - unansweredInARow} answers: ${lastReason}`,
      });
    }
  } finally {
    client.close();
  }

  const notChecked: string[] = [];
  if (!site.hasSchema) notChecked.push('/api/v1/schema: the local build has no OpenAPI document');
  if (!sameOrigin)
    notChecked.push(
      `/api/v1/downloads: the local build is for ${site.builtOrigin}, and its files hold that origin (build for the mirror's, or give --content)`,
    );
  return ok({
    mirror,
    apiOrigin: site.index.apiOrigin,
    checks: checks.length,
    requests: client.made,
    differences: results.flat(),
    tolerated,
    notChecked,
    hints,
    seed,
    sample,
    ms: performance.now() - started,
  });
}
