// The benchmark's one table: each figure, its ratio to the floor (for times), its target.

import type { Machine } from './machine.ts';

export interface Figure {
  key: string;
  label: string;
  value: number;
  unit: string;
  /** A duration, comparable with the floor. */
  time?: boolean;
  ratioToFloor?: number;
  target?: number;
  targetText?: string;
  met?: boolean;
}

function formatValue(f: Figure): string {
  if (f.unit === 'ms') return f.value >= 1000 ? `${(f.value / 1000).toFixed(2)} s` : `${f.value.toFixed(f.value < 10 ? 2 : 0)} ms`;
  if (f.unit === 'µs') return `${f.value.toFixed(1)} µs`;
  if (f.unit === '×') return `${f.value.toFixed(2)}×`;
  if (f.unit === 'MB') return `${f.value.toFixed(1)} MB`;
  if (f.unit === 'req/s') return `${Math.round(f.value).toLocaleString('en-US')} req/s`;
  return `${Math.round(f.value).toLocaleString('en-US')} ${f.unit}`;
}

function formatRatio(f: Figure): string {
  if (f.ratioToFloor === undefined) return '';
  return f.ratioToFloor < 0.01 ? `${f.ratioToFloor.toExponential(1)}×` : `${f.ratioToFloor.toFixed(2)}×`;
}

export function formatTable(figures: readonly Figure[], machine: Machine): string {
  const rows = figures.map((f) => [f.label, formatValue(f), formatRatio(f), f.targetText ?? '', f.met === undefined ? '' : f.met ? 'met' : 'NOT MET']);
  const head = ['figure', 'value', '÷ floor', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ').trimEnd();
  return [
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; ${machine.os}; Node ${machine.node}; ` +
      `file system ${machine.fileSystem}; load average at start ${machine.loadAverage.join(' ')}; commit ${machine.commit}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}
