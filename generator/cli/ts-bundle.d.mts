/** How old another bundle of the same entry must be before a new one replaces it on disk. */
export const STALE_MS: number;

/** Removes the bundles of entry `key` in `dir` other than `keep` that are older than STALE_MS (at `now`). Never throws. */
export function pruneBundles(dir: string, key: string, keep: string, now?: number): void;

/** The path of an up-to-date bundle of `entry`, made now if need be, or null when there cannot be one. */
export function bundleOf(entry: string): Promise<string | null>;
