// Remembers rendered bodies between rebuilds of the watch mode. A body is reused when what it was
// rendered from is the same as last time: the record (all its own fields, compared with ===, and
// arrays element by element, so that a field added to a record later cannot be missed) and the
// derived lists its renderer reads. Unchanged files keep their parsed objects between rebuilds,
// so for all but the edited records this is a handful of pointer checks, and the reused body is
// the very same string: telling an unchanged output from a changed one is then one comparison.
// Everything is forgotten when the configuration (origins, page size) changes.

const NOTHING = Object.freeze({});

interface Cell<V> {
  /** One record (get), or several (getOfMany: a pack of details). */
  record: object | readonly object[];
  extras: readonly unknown[];
  body: V;
  /** The render that last asked for this cell. */
  seen: number;
}

/** Bodies of one kind, by the key of their record (a date, an id, a slug, a path). */
export class MemoTable<K, V = string> {
  private readonly cells = new Map<K, Cell<V>>();
  private readonly memo: RenderMemo;

  constructor(memo: RenderMemo) {
    this.memo = memo;
  }

  /** The body rendered from `record` and `extras`, rendering it only if one of them changed. */
  get(key: K, record: object, extras: readonly unknown[], render: () => V): V {
    return this.kept(key, record, extras, render, (was) => !Array.isArray(was) && sameRecord(was, record));
  }

  /**
   * As get, for a body made of several records, each compared as get compares one: a pack of
   * details, whose bodies are then not kept apart from it (they are its text already).
   */
  getOfMany(key: K, records: readonly object[], extras: readonly unknown[], render: () => V): V {
    return this.kept(key, records, extras, render, (was) => Array.isArray(was) && sameRecords(was, records));
  }

  /** The cell's body when `same` holds of its record and its extras are the same; else rendered and kept. */
  private kept(
    key: K,
    record: Cell<V>['record'],
    extras: readonly unknown[],
    render: () => V,
    same: (was: Cell<V>['record']) => boolean,
  ): V {
    const cell = this.cells.get(key);
    const seen = this.memo.generation;
    if (cell !== undefined && same(cell.record) && sameList(cell.extras, extras)) {
      // The cell keeps the objects it has: the new, equal ones die young, which keeps the old
      // generation of the heap (and the pauses of collecting it) small in a long watch session.
      cell.seen = seen;
      return cell.body;
    }
    const body = render();
    this.cells.set(key, { record, extras, body, seen });
    return body;
  }

  /** The body last made or set for `key`, if it is still kept. */
  last(key: K): V | undefined {
    return this.cells.get(key)?.body;
  }

  /** Keeps `body` for `key`, made of nothing the table compares (what it holds says what it is). */
  set(key: K, body: V): void {
    this.cells.set(key, { record: NOTHING, extras: [], body, seen: this.memo.generation });
  }

  sweep(generation: number): void {
    for (const [key, cell] of this.cells) if (cell.seen !== generation) this.cells.delete(key);
  }

  clear(): void {
    this.cells.clear();
  }
}

export class RenderMemo {
  generation = 0;
  private config: unknown[] = [];
  private readonly tables = new Map<string, MemoTable<unknown, unknown>>();

  /** Starts a render for this configuration; a different one makes everything stale. */
  begin(config: readonly unknown[]): void {
    this.generation++;
    if (!sameList(this.config, config)) {
      for (const t of this.tables.values()) t.clear();
      this.config = [...config];
    }
  }

  table<K, V = string>(name: string): MemoTable<K, V> {
    let t = this.tables.get(name);
    if (t === undefined) {
      t = new MemoTable<unknown, unknown>(this);
      this.tables.set(name, t);
    }
    return t as unknown as MemoTable<K, V>;
  }

  /** Forgets what the last render did not ask for (records that are gone). */
  sweep(): void {
    for (const t of this.tables.values()) t.sweep(this.generation);
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b)) return false;
  return sameList(a, b);
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
  return true;
}

function sameRecords(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameRecord(a[i] as object, b[i] as object)) return false;
  return true;
}

function sameRecord(a: object, b: object): boolean {
  if (a === b) return true;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (!(key in y) || !sameValue(x[key], y[key])) return false;
    count++;
  }
  for (const _ in y) count--;
  return count === 0;
}
