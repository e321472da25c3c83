import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { describeSummary, jsonProgress, silentProgress, terminalProgress } from './copy/report.js';
import { createSource } from './copy/source.js';
import { copyWorkspace } from './copy/workspace-copy.js';
import type { CliIo, Json } from './main.js';

export interface CommandContext {
  io: CliIo;
  withServices<T>(work: (services: Services, config: Config) => Promise<T>): Promise<T>;
  print(options: Json, value: unknown, human: string): void;
  workspaceId(value: string): number;
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
    .option('--json', 'print progress and the summary as JSON lines')
    .action(async (options: Json & { from: string; key: string; into?: string }) => {
      const into = options.into === undefined ? undefined : ctx.workspaceId(options.into);
      const summary = await ctx.withServices(async (services, config) => {
        if (into !== undefined) await services.workspace.get(into);
        const progress = options.json
          ? jsonProgress(io.out)
          : io.terminal
            ? terminalProgress(io.terminal)
            : silentProgress;
        return copyWorkspace({
          source: createSource(options.from, options.key),
          services,
          limits: config.limits,
          into,
          progress,
        });
      });
      ctx.print(options, { summary }, describeSummary(summary));
    });
}
