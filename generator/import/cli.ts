// `npm run import -- standard-ebooks <edition dir> [--out <content dir>] [--report <file.json>]`
//
// Imports a diary edition into a content directory and prints what it did. Exit status: 0 on
// success, 1 on a failed import (unreadable or malformed input), 2 on a usage error.

import { writeFileSync } from 'node:fs';
import { formatReport, type ImportReport } from './report.ts';
import { importStandardEbooks } from './standard-ebooks.ts';

const USAGE = `usage: npm run import -- standard-ebooks <edition dir> [--out <content dir>] [--report <file.json>]

  <edition dir>        the Standard Ebooks edition (the directory holding text/chapter-N.xhtml)
  --out <dir>          content directory to import into (default: content); its entries/ is replaced
  --report <file>      also write the report as JSON
`;

interface Args {
  source: string;
  editionDir: string;
  outDir: string;
  reportFile: string | null;
}

function parseArgs(argv: readonly string[]): Args | string {
  const positional: string[] = [];
  let outDir = 'content';
  let reportFile: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return '';
    if (arg === '--out' || arg === '--report') {
      const value = argv[++i];
      if (value === undefined || value === '') return `${arg} needs a value`;
      if (arg === '--out') outDir = value;
      else reportFile = value;
    } else if (arg.startsWith('--out=')) {
      outDir = arg.slice('--out='.length);
    } else if (arg.startsWith('--report=')) {
      reportFile = arg.slice('--report='.length);
    } else if (arg.startsWith('-')) {
      return `unknown option ${arg}`;
    } else {
      positional.push(arg);
    }
  }
  const [source, editionDir, ...rest] = positional;
  if (source === undefined || editionDir === undefined) return 'missing <source> or <edition dir>';
  if (rest.length > 0) return `unexpected argument ${rest[0]}`;
  if (source !== 'standard-ebooks') return `unknown source "${source}" (known: standard-ebooks)`;
  return { source, editionDir, outDir, reportFile };
}

function main(argv: readonly string[]): number {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    if (args !== '') process.stderr.write(`import: ${args}\n`);
    (args === '' ? process.stdout : process.stderr).write(USAGE);
    return args === '' ? 0 : 2;
  }
  const started = performance.now();
  let report: ImportReport;
  try {
    report = importStandardEbooks(args.editionDir, args.outDir);
  } catch (error) {
    process.stderr.write(`import: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  process.stdout.write(`Imported ${args.editionDir} into ${args.outDir}/entries in ${seconds} s\n`);
  process.stdout.write(formatReport(report));
  if (args.reportFile !== null) {
    writeFileSync(args.reportFile, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`report written to ${args.reportFile}\n`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
