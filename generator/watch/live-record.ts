// When and how the watch mode writes what a build writes beside its tree (the live tree's
// manifest, sources file and basis: output/tree-writer.ts record), so that `npm run build` after a
// session trusts its output as it trusts a build's (docs/pipeline.md). Once the downloads live are
// those of the last valid render and no rebuild is under way: after an edit's answers are current,
// never on their way. The content is read again to fingerprint it (render-inputs.ts: a file read
// and unchanged since an earlier record is only looked at), the basis serialized
// (render/basis.ts) and it and the sources written beside the output (output/replace-file.ts
// writeAhead), each a slice at a time so that the server answers in between; only the
// renames and the manifest take one turn. An edit, a rebuild or a new live tree meanwhile drops
// the record (and what it wrote ahead), and the next render's follows.

import { rmSync } from 'node:fs';
import type { LoadOptions } from '../content/fingerprint.ts';
import type { WrittenAhead } from '../output/file.ts';
import { BASIS_FILE, SOURCES_FILE, sourcesText } from '../output/manifest.ts';
import { writeAhead } from '../output/replace-file.ts';
import { basisSteps } from '../render/basis.ts';
import { describeFault } from './describe-fault.ts';
import type { RenderBasis } from './fast-path.ts';
import { type KeptDigests, renderInputs } from './render-inputs.ts';
import { slices } from './slices.ts';

/** What the record needs of its session. */
export interface RecordHost {
  contentDir: string;
  options: LoadOptions;
  /** What the last valid render was made from (null: none to record). */
  basis(): RenderBasis | null;
  /** Whether a rebuild is under way. */
  rebuilding(): boolean;
  /** Whether the downloads live are those of the last valid render (downloads-remake.ts idle). */
  downloadsIdle(): boolean;
  /** Resolves once they are (downloads-remake.ts settled). */
  downloadsSettled(): Promise<void>;
  /** Where the records are written ahead (twin-trees.ts recordDir): on the live tree's file system. */
  recordDir(): string;
  /** Hashes the live tree's files written since its last record, between `go()`s (twin-trees.ts hashAhead). */
  hashAhead(go: () => Promise<boolean>): Promise<boolean>;
  /** Writes the live tree's records, renaming those written ahead into place (twin-trees.ts record). */
  write(inputs: string, sources: WrittenAhead, basis: WrittenAhead | null): void;
  warn(line: string): void;
}

export class LiveRecord {
  /** Moves with every change of the content read or of the live tree (moved). */
  private version = 0;
  /** The version the live tree's records were last written for. */
  private recordedVersion = -1;
  /** The record being made, if any. */
  private recording: Promise<void> | null = null;
  /** Waiting for the downloads to settle before recording. */
  private awaitingDownloads = false;
  private closed = false;
  /** What the records so far hashed of the content files (render-inputs.ts). */
  private readonly digests: KeptDigests = new Map();
  private readonly host: RecordHost;

  constructor(host: RecordHost) {
    this.host = host;
  }

  /** The content read or the live tree changed: a record under way is of what was before. */
  moved(): void {
    this.version++;
  }

  /** Stops: a record under way writes nothing, none is started. */
  close(): void {
    this.closed = true;
  }

  /**
   * Records now if the downloads are current and the live tree is not recorded yet, and waits for
   * any record under way. Resolves to whether the records are those of the content as last rendered.
   */
  async now(): Promise<boolean> {
    this.soon();
    while (this.recording !== null) await this.recording;
    return this.recordedVersion === this.version;
  }

  /** Starts a record when one is due (see above); at once when the downloads are current, else once they are. */
  soon(): void {
    const host = this.host;
    if (this.closed || this.recording !== null) return;
    if (!host.downloadsIdle()) {
      if (this.awaitingDownloads) return;
      this.awaitingDownloads = true;
      void host.downloadsSettled().then(() => {
        this.awaitingDownloads = false;
        this.soon();
      });
      return;
    }
    if (host.rebuilding() || host.basis() === null || this.version === this.recordedVersion) return;
    const version = this.version;
    this.recording = this.make(version).then((dropped) => {
      this.recording = null;
      // Dropped for a rebuild or a newer version: tried again (at once, or after that rebuild).
      if (dropped) this.soon();
    });
  }

  /** Makes the record of `version`; true when it was dropped for something that moved meanwhile. */
  private async make(version: number): Promise<boolean> {
    const host = this.host;
    const basis = host.basis() as RenderBasis;
    const stale = () =>
      this.closed || this.version !== version || host.rebuilding() || !host.downloadsIdle() || host.basis() !== basis;
    try {
      const inputs = await renderInputs(host.contentDir, basis, host.options, stale, this.digests);
      // Content that is not what was rendered: its rebuild follows, and records.
      if (inputs === null || stale()) return stale();
      const { model, search } = basis.site;
      const go = slices(() => !stale());
      // The files written since the last record hashed, the basis made, then it and the sources
      // written beside the output, a slice at a time; only their renames and the manifest are left
      // for one turn (twin-trees.ts record).
      if (!(await host.hashAhead(go))) return true;
      let basisLines: Iterable<Uint8Array> | null = null;
      if (search !== undefined) {
        const steps = basisSteps(model, search);
        for (let step = steps.next(); ; step = steps.next()) {
          if (step.done === true) {
            basisLines = step.value.pieces();
            break;
          }
          if (!(await go())) return true;
        }
      }
      const dir = host.recordDir();
      try {
        const sources = await writeAhead(dir, SOURCES_FILE, [Buffer.from(sourcesText(inputs.sources))], go);
        if (sources === null) return true;
        let basisAhead: WrittenAhead | null = null;
        if (basisLines !== null) {
          basisAhead = await writeAhead(dir, BASIS_FILE, basisLines, go);
          if (basisAhead === null) return true;
        }
        if (stale()) return true;
        host.write(inputs.fingerprint, sources, basisAhead);
      } finally {
        // Empty once the records were renamed into the tree; else what was written for nothing.
        rmSync(dir, { recursive: true, force: true });
      }
      this.recordedVersion = version;
    } catch (err) {
      this.host.warn(`recording what ${host.contentDir} was made of beside the output failed: ${describeFault(err)}`);
    }
    return false;
  }
}
