import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { describeSummary, jsonProgress, terminalProgress } from './copy/report.js';
import { TEXTS_PER_SLICE } from './copy/snapshot.js';
import { createSource, SOURCE_DEFAULTS, SourceError } from './copy/source.js';
import { copyWorkspace } from './copy/workspace-copy.js';
import type { CliIo, Json } from './io.js';

export interface CommandContext {
  io: CliIo;
  withServices<T>(work: (services: Services, config: Config) => Promise<T>): Promise<T>;
  print(options: Json, value: unknown, human: string): void;
  workspaceId(value: string): number;
}

interface CopyCommandOptions {
  from: string;
  key: string;
  into?: string;
  requestTimeout: string;
  timeout: string;
  maxResponseMb: string;
  sliceTexts: string;
}

function positive(option: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new SourceError(`${option}: '${value}' is not a positive number`);
  return number;
}

/** `workspace copy`, `workspace export` and `workspace import`: moving a workspace in and out. */
export function registerWorkspaceCommands(workspace: Command, ctx: CommandContext): void {
  const { io } = ctx;
  workspace
    .command('copy')
    .description('copy everything a key can see on another API v2 server into a workspace of this one')
    .requiredOption('--from <url>', 'the source server, e.g. https://copy.example.com (with or without /v2)')
    .requiredOption('--key <key>', "an API key of the source's workspace")
    .option('--into <workspace>', 'the workspace to write into (default: a new workspace)')
    .option(
      '--request-timeout <seconds>',
      'the longest wait for a connection, an answer, or the next part of one',
      String(SOURCE_DEFAULTS.requestTimeoutSeconds),
    )
    .option(
      '--timeout <seconds>',
      'the longest the reading of the source may take',
      String(SOURCE_DEFAULTS.timeoutSeconds),
    )
    .option(
      '--max-response-mb <MiB>',
      'the largest answer taken from the source',
      String(SOURCE_DEFAULTS.maxResponseMb),
    )
    .option(
      '--slice-texts <count>',
      'the texts of a project read, compared and written together (memory grows with it)',
      String(TEXTS_PER_SLICE),
    )
    .option('--json', 'print progress and the summary as JSON lines')
    .action(async (options: Json & CopyCommandOptions) => {
      const sliceTexts = positive('--slice-texts', options.sliceTexts);
      if (!Number.isInteger(sliceTexts))
        throw new SourceError(`--slice-texts: '${options.sliceTexts}' is not a whole number`);
      const into = options.into === undefined ? undefined : ctx.workspaceId(options.into);
      const limits = {
        requestTimeoutMs: positive('--request-timeout', options.requestTimeout) * 1000,
        overallTimeoutMs: positive('--timeout', options.timeout) * 1000,
        maxResponseBytes: Math.floor(positive('--max-response-mb', options.maxResponseMb) * 2 ** 20),
      };
      const summary = await ctx.withServices(async (services, config) => {
        if (into !== undefined) await services.workspace.get(into);
        // A bar on a terminal; elsewhere (logs, CI) one JSON line per step, on stderr unless --json.
        const progress = options.json
          ? jsonProgress(io.out)
          : io.terminal
            ? terminalProgress(io.terminal)
            : jsonProgress(io.err);
        return copyWorkspace({
          source: createSource(options.from, options.key, {
            ...limits,
            retries: SOURCE_DEFAULTS.retries,
            onProgress: (state, quiet) => progress.reading(state, quiet),
          }),
          services,
          limits: config.limits,
          into,
          progress,
          sliceTexts,
        });
      });
      ctx.print(options, { summary }, describeSummary(summary));
    });

  workspace
    .command('export')
    .description('write a backup of a workspace, history included, to one file (JSON Lines, gzip)')
    .requiredOption('--out <file>', 'the file to write (replaced whole once the backup is complete)')
    .option('--workspace <id>', 'the workspace (default: the only one of the database)')
    .option('--json', 'print JSON')
    .action(async (options: Json & { out: string; workspace?: string }) => {
      const started = Date.now();
      const result = await ctx.withServices(async (services) => {
        const id = options.workspace ? ctx.workspaceId(options.workspace) : await services.backup.defaultWorkspace();
        return services.backup.exportFile(id, options.out, { progress: collector() });
      });
      ctx.print(
        options,
        { ...result, ms: Date.now() - started },
        `Wrote workspace ${result.workspaceId} to ${result.file} (${result.bytes} bytes)`,
      );
    });

  workspace
    .command('import')
    .description('restore a backup into an empty workspace (default: a new one)')
    .requiredOption('--file <file>', 'a file written by workspace export')
    .option('--workspace <id>', 'an empty workspace to restore into')
    .option('--json', 'print JSON')
    .action(async (options: Json & { file: string; workspace?: string }) => {
      const into = options.workspace === undefined ? undefined : ctx.workspaceId(options.workspace);
      const started = Date.now();
      const summary = await ctx.withServices((services) =>
        services.backup.importFile(options.file, into, { progress: collector() }),
      );
      const skipped = summary.skippedKeys.length
        ? `\nNot restored: API keys ${summary.skippedKeys.join(', ')} (this database already holds them)`
        : '';
      ctx.print(
        options,
        { ...summary, ms: Date.now() - started },
        `Restored ${options.file} into workspace ${summary.workspaceId}: ${summary.restored.texts} texts, ${summary.restored.changes} changes${skipped}`,
      );
    });
}

/** Rows between two full collections during an export or import. */
const COLLECT_EVERY = 50_000;

/**
 * A full garbage collection every so many rows of an export or import. What they hold is bounded
 * (a page of rows and the id maps), but V8 lets the garbage of a million parsed rows grow the heap
 * far past that before it collects: with this, the command's memory stays near what it holds.
 * A collection takes a few tens of milliseconds in a process that serves nobody.
 */
function collector(): (rows: number) => void {
  let gc: (() => void) | undefined;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  } catch {
    gc = undefined;
  }
  let next = COLLECT_EVERY;
  return (rows) => {
    if (gc === undefined || rows < next) return;
    gc();
    next = rows + COLLECT_EVERY;
  };
}
