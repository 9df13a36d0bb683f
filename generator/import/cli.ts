// `npm run import -- standard-ebooks <edition dir> [--out <content dir>] [--report <file.json>]`
//
// Imports a diary edition into a content directory and prints what it did. Exit status: 0 on
// success, 1 on a failed import (a file of the edition unreadable or malformed, named; a fault of
// the machine), 2 on a usage error or a --out the import refuses (see write.ts). Errors are
// printed by the tools' one error printer (cli/exit.ts).

import { writeFileSync } from 'node:fs';
import { exitOnUncaught, exitWith, fail } from '../cli/exit.ts';
import { orRefuse } from '../output/guard.ts';
import { EditionError } from './corpus.ts';
import { formatReport, type ImportReport } from './report.ts';
import { importStandardEbooks } from './standard-ebooks.ts';
import { checkContentTarget } from './write.ts';
import { XmlError } from './xml.ts';

const USAGE = `usage: npm run import -- standard-ebooks <edition dir> [--out <content dir>] [--report <file.json>]

  <edition dir>        the Standard Ebooks edition (the directory holding text/chapter-N.xhtml)
  --out <dir>          content directory to import into (default: content); its entries/ is
                       replaced; it must be new, empty or a content directory
  --report <file>      also write the report as JSON
`;

interface Args {
  source: string;
  editionDir: string;
  contentDir: string;
  reportFile: string | null;
}

function parseArgs(argv: readonly string[]): Args | string {
  const positional: string[] = [];
  let contentDir = 'content';
  let reportFile: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return '';
    if (arg === '--out' || arg === '--report') {
      const value = argv[++i];
      if (value === undefined || value === '') return `${arg} needs a value`;
      if (arg === '--out') contentDir = value;
      else reportFile = value;
    } else if (arg.startsWith('--out=')) {
      contentDir = arg.slice('--out='.length);
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
  return { source, editionDir, contentDir, reportFile };
}

function main(argv: readonly string[]): void {
  const args = parseArgs(argv);
  if (args === '') {
    process.stdout.write(USAGE);
    return;
  }
  if (typeof args === 'string') fail(`${args} (npm run import -- --help)`);
  const kept = { kept: `${args.contentDir}/entries` };
  exitOnUncaught(kept);
  const started = performance.now();
  let report: ImportReport;
  try {
    orRefuse(checkContentTarget(args.contentDir, args.editionDir));
    report = importStandardEbooks(args.editionDir, args.contentDir);
  } catch (error) {
    // A file of the edition that cannot be read whole: its own message names it.
    if (error instanceof EditionError || error instanceof XmlError) fail(`${error.message}; nothing was imported`, 1);
    exitWith(error, kept);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  process.stdout.write(`Imported ${args.editionDir} into ${args.contentDir}/entries in ${seconds} s\n`);
  process.stdout.write(formatReport(report));
  if (args.reportFile !== null) {
    try {
      writeFileSync(args.reportFile, `${JSON.stringify(report, null, 2)}\n`);
    } catch (error) {
      exitWith(error);
    }
    process.stdout.write(`report written to ${args.reportFile}\n`);
  }
}

main(process.argv.slice(2));
