// Runs a database's steps in sql.js and gives the database's bytes: shared by the build's thread
// for the downloads (database-worker.mjs) and by render/downloads.ts when it makes them in its own
// thread (the watch mode, the tests). Plain JavaScript, so that a worker thread can load it under
// any Node (Node 20 does not give worker threads the module hooks that run this project's
// TypeScript); what the steps are is decided in downloads.ts.

/** @param {import('sql.js').SqlJsStatic} SQL @param {import('./sqlite-steps.d.mts').DatabaseStep[]} steps */
export function makeDatabase(SQL, steps) {
  const db = new SQL.Database();
  try {
    for (const step of steps) {
      if (step.rows === undefined) {
        db.run(step.sql);
        continue;
      }
      const statement = db.prepare(step.sql);
      try {
        for (const row of step.rows) statement.run(row);
      } finally {
        statement.free();
      }
    }
    return db.export();
  } finally {
    db.close();
  }
}
