// Runs a database's steps in sql.js and gives the database's bytes: shared by the thread that
// makes the downloads' database (database-worker.mjs), which is given the steps one by one, and by
// render/downloads.ts when it makes it on the caller's thread (renderSite: the watch mode's first
// render, its downloads made at once for the tests, the tests' renders). Plain JavaScript, so
// that a worker thread can load it under any Node (Node 20 does not give worker threads the module
// hooks that run this project's TypeScript); what the steps are is decided in downloads.ts.

/**
 * A new in-memory database that steps are run on one after another (`step`), then made bytes
 * (`end`) or dropped (`abandon`). A statement with rows is prepared once and kept for the steps
 * that follow with the same SQL (an insert sent in pieces); SQL without rows frees them first.
 * @param {import('sql.js').SqlJsStatic} SQL
 */
export function databaseWriter(SQL) {
  const db = new SQL.Database();
  /** @type {Map<string, import('sql.js').Statement>} */
  const statements = new Map();
  const free = () => {
    for (const statement of statements.values()) statement.free();
    statements.clear();
  };
  return {
    /** @param {import('./sqlite-steps.d.mts').DatabaseStep} step */
    step(step) {
      if (step.rows === undefined) {
        free();
        db.run(step.sql);
        return;
      }
      let statement = statements.get(step.sql);
      if (statement === undefined) {
        statement = db.prepare(step.sql);
        statements.set(step.sql, statement);
      }
      for (const row of step.rows) statement.run(row);
    },
    end() {
      try {
        free();
        return db.export();
      } finally {
        db.close();
      }
    },
    abandon() {
      free();
      db.close();
    },
  };
}

/**
 * A new in-memory database, each step run on it in order; its bytes.
 * @param {import('sql.js').SqlJsStatic} SQL @param {Iterable<import('./sqlite-steps.d.mts').DatabaseStep>} steps
 */
export function makeDatabase(SQL, steps) {
  const writer = databaseWriter(SQL);
  try {
    for (const step of steps) writer.step(step);
  } catch (err) {
    writer.abandon();
    throw err;
  }
  return writer.end();
}
