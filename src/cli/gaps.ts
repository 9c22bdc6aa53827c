/**
 * `npm run gaps [-- --json] [-- --days N]`: the coverage-gaps report `/gaps` shows moderators, for
 * operators at a terminal: questions without coverage grouped by what they are about, and the answers
 * most often voted not helpful. Reads the database DATA_DIR names (or DATABASE_URL's); changes nothing.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Community } from '../community/community.ts';
import { CommunityDatabaseError, openDatabase } from '../community/database.ts';
import { buildGapsReport, type GapsReport, gapsReportText } from '../community/gaps-report.ts';
import { PostgresCommunity } from '../community/postgres-community.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { inertJson, stripControls } from '../text/controls.ts';

const USAGE = `Usage: npm run gaps -- [--json] [--days N]

  --json     print the report as JSON
  --days N   how far back to look, 1-3650 (default 30)
  --help     show this help

The database is DATA_DIR/newsdesk.sqlite (DATA_DIR from the environment or .env; default .data),
or PostgreSQL when DATABASE_URL is set.
`;

async function main(): Promise<number> {
  let values: { json: boolean; days?: string | undefined; help: boolean };
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      options: {
        json: { type: 'boolean', default: false },
        days: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values as typeof values;
  } catch (error) {
    process.stderr.write(`newsdesk gaps: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const days = values.days === undefined ? 30 : Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    process.stderr.write(
      `newsdesk gaps: --days must be a whole number from 1 to 3650, not "${values.days}"\n`,
    );
    return 2;
  }
  // `npm run gaps --json` (without `--`) hands --json to npm, which passes it on as npm_config_json.
  const json = values.json || process.env.npm_config_json === 'true';
  const config = loadConfig();
  const print = (report: GapsReport) =>
    // Members' questions are theirs: printed with no escape or control a terminal would act on.
    process.stdout.write(`${json ? inertJson(report, 2) : stripControls(gapsReportText(report))}\n`);
  if (config.DATABASE_URL) {
    const store = new PostgresCommunity({
      url: config.DATABASE_URL,
      recordQuestions: config.RECORD_QUESTIONS,
    });
    try {
      print(await buildGapsReport(store, { now: new Date(), days }));
      return 0;
    } catch (error) {
      if (error instanceof CommunityDatabaseError) throw error;
      process.stderr.write(
        `newsdesk gaps: could not read ${store.location}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 1;
    } finally {
      await store.close();
    }
  }
  const file = Community.fileFor(config);
  if (file === undefined || !existsSync(file)) {
    process.stderr.write(
      file === undefined
        ? 'newsdesk gaps: DATA_DIR is empty, so nothing is recorded.\n'
        : `newsdesk gaps: no database at ${file} yet (the bot creates it when it starts).\n`,
    );
    return 1;
  }
  const community = new Community(openDatabase(file, { readonly: true }), {
    file,
    recordQuestions: config.RECORD_QUESTIONS,
    recordDays: config.RECORD_DAYS,
  });
  try {
    print(await buildGapsReport(community, { now: new Date(), days }));
    return 0;
  } finally {
    community.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof CommunityDatabaseError) {
      process.stderr.write(`newsdesk gaps: ${error.message}\n`);
      process.exitCode = 1;
    } else throw error;
  },
);
