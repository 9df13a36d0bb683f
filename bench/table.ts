// The benchmark's one table: each figure, the figure it is measured against (the copy floor for
// times of work, the static detail for the server's computed answers), its target, and whether
// the target is met; why not, below the table.

import type { Machine } from './machine.ts';

export interface Figure {
  key: string;
  label: string;
  value: number;
  unit: string;
  /** What the value is measured against: shown as their ratio, e.g. "2.10× floor". */
  against?: { name: string; value: number };
  ratio?: number;
  target?: number;
  /** 'max' (the default): the value must be at most the target; 'min': at least. */
  targetKind?: 'max' | 'min';
  targetText?: string;
  met?: boolean;
  /** Why the target is missed, when it is (printed under the table). */
  reason?: string;
}

function formatValue(f: Figure): string {
  if (f.unit === 'ms')
    return f.value >= 1000 ? `${(f.value / 1000).toFixed(2)} s` : `${f.value.toFixed(f.value < 10 ? 1 : 0)} ms`;
  if (f.unit === 'µs') return `${f.value.toFixed(1)} µs`;
  if (f.unit === '×') return `${f.value.toFixed(2)}×`;
  if (f.unit === 'MB') return `${f.value.toFixed(1)} MB`;
  if (f.unit === 'req/s') return `${Math.round(f.value).toLocaleString('en-US')} req/s`;
  return `${Math.round(f.value).toLocaleString('en-US')} ${f.unit}`;
}

function formatRatio(f: Figure): string {
  if (f.ratio === undefined || f.against === undefined) return '';
  return `${f.ratio < 0.01 ? f.ratio.toExponential(1) : f.ratio.toFixed(2)}× ${f.against.name}`;
}

/** Fills in each figure's ratio and whether its target is met. */
export function judge(figures: Figure[]): void {
  for (const f of figures) {
    if (f.against !== undefined) f.ratio = f.value / f.against.value;
    if (f.target !== undefined) f.met = f.targetKind === 'min' ? f.value >= f.target : f.value <= f.target;
  }
}

export function formatTable(figures: readonly Figure[], machine: Machine, load: string): string {
  const notes: string[] = [];
  const rows = figures.map((f) => {
    let verdict = '';
    if (f.met === true) verdict = 'met';
    if (f.met === false) {
      notes.push(f.reason ?? 'no reason given');
      verdict = `NOT MET (${notes.length})`;
    }
    return [f.label, formatValue(f), formatRatio(f), f.targetText ?? '', verdict];
  });
  const head = ['figure', 'value', 'against', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; ${machine.os}; Node ${machine.node}; ` +
      `file system ${machine.fileSystem}; commit ${machine.commit}`,
    `load average (1 min): ${load}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    ...(notes.length === 0 ? [] : ['', ...notes.map((n, i) => `(${i + 1}) ${n}`)]),
  ].join('\n');
}
