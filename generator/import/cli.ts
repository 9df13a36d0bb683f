// `npm run import -- standard-ebooks <edition dir> [--out <content dir>] [--report <file.json>]`
//
// Imports a diary edition into a content directory and prints what it did. Exit status: 0 on
// success, 1 on a failed import (a file of the edition unreadable or malformed, named; a fault of
// the machine), 2 on a usage error or a --out the import refuses (see write.ts). Errors are
// printed by the tools' one error printer (cli/exit.ts).

import { writeFileSync } from 'node:fs';
import { exitOnUncaught, exitWith, fail } from '../cli/exit.ts';
import { parseCommand, STANDARD_OPTIONS } from '../cli/options.ts';
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
  -h, --help           this help
  --version            the version, and Node's
`;

interface Args {
  source: string;
  editionDir: string;
  contentDir: string;
  reportFile: string | null;
}

function readArgs(argv: string[]): Args {
  const { values, positionals } = parseCommand('npm run import', USAGE, {
    args: argv,
    allowPositionals: true,
    options: {
      ...STANDARD_OPTIONS,
      out: { type: 'string', default: 'content' },
      report: { type: 'string' },
    },
  });
  const usage = (message: string) => fail(`${message} (npm run import -- --help)`);
  if (values.out === '') usage('--out needs a value');
  if (values.report === '') usage('--report needs a value');
  const [source, editionDir, ...rest] = positionals;
  if (source === undefined || editionDir === undefined) usage('missing <source> or <edition dir>');
  if (rest.length > 0) usage(`unexpected argument ${rest[0]}`);
  if (source !== 'standard-ebooks') usage(`unknown source "${source}" (known: standard-ebooks)`);
  return {
    source: source as string,
    editionDir: editionDir as string,
    contentDir: values.out as string,
    reportFile: values.report ?? null,
  };
}

function main(argv: string[]): void {
  const args = readArgs(argv);
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
