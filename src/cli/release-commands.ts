import type { Command } from 'commander';
import { CLI_ACTOR } from '../modules/changes/index.js';
import type { Services } from '../services.js';
import type { Json } from './io.js';
import type { CommandContext } from './workspace-commands.js';

interface WorkspaceOption extends Json {
  workspace?: string;
}

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/**
 * `release create|list|diff|publish`: releases (docs/releases.md) from the administrator's
 * tool, on the database like every command, as the CLI (`cli` in the history).
 */
export function registerReleaseCommands(program: Command, ctx: CommandContext): void {
  const { withServices, print } = ctx;
  const inWorkspace = async (services: Services, options: WorkspaceOption) =>
    options.workspace ? ctx.workspaceId(options.workspace) : await services.backup.defaultWorkspace();
  const release = program.command('release').description('freeze, compare and publish releases of text');

  release
    .command('create')
    .description('freeze the texts a filter selects (default: every project and the library, FINAL only)')
    .argument('<name>', 'the release name, e.g. 2026.12.1')
    .option('--workspace <id>', 'workspace id (default: the only one)')
    .option('--projects <ids>', 'project developer IDs, comma-separated (default: every project)')
    .option('--no-library', "leave the library's components out")
    .option('--statuses <keys>', 'status keys, comma-separated (default: FINAL; "" for every status)')
    .option('--variants <ids>', 'variant developer IDs, comma-separated (default: every variant)')
    .option('--json', 'print JSON')
    .action(
      async (
        name: string,
        options: WorkspaceOption & { projects?: string; library: boolean; statuses?: string; variants?: string },
      ) => {
        const made = await withServices(async (s) => {
          const workspaceId = await inWorkspace(s, options);
          const projects = list(options.projects);
          const statuses = list(options.statuses);
          const variants = list(options.variants);
          const filter = {
            ...(projects && { projects }),
            ...(options.library === false && { library: false }),
            ...(statuses && { statuses }),
            ...(variants && { variants }),
          };
          return s.releases.create({ workspaceId, email: CLI_ACTOR.email }, { name, filter });
        });
        print(
          options,
          made,
          `Release ${made.name}: ${made.textItems} text items, ${made.components} components (${made.hash})`,
        );
      },
    );

  release
    .command('list')
    .description("list a workspace's releases, oldest first")
    .option('--workspace <id>', 'workspace id (default: the only one)')
    .option('--json', 'print JSON')
    .action(async (options: WorkspaceOption) => {
      const releases = await withServices(async (s) => s.releases.list(await inWorkspace(s, options)));
      const lines = releases.map(
        (r) => `${r.name}  ${r.createdAt}  ${r.createdBy}  ${r.textItems} text items, ${r.components} components`,
      );
      print(options, releases, lines.length ? lines.join('\n') : 'No releases');
    });

  release
    .command('diff')
    .description('what changed from one release to another, or to the current text')
    .argument('<from>', 'a release name')
    .argument('[to]', 'a release name, or current (the default)', 'current')
    .option('--workspace <id>', 'workspace id (default: the only one)')
    .option('--json', 'print JSON')
    .action(async (from: string, to: string, options: WorkspaceOption) => {
      const diff = await withServices(async (s) => s.releases.diff(await inWorkspace(s, options), from, to));
      const key = (d: { kind: string; id: string; variantId: string | null }) =>
        `${d.kind} ${d.id}${d.variantId ? ` [${d.variantId}]` : ''}`;
      const lines = [
        ...diff.added.map((d) => `+ ${key(d)}: ${JSON.stringify(d.value.text)}`),
        ...diff.changed.map((d) => `~ ${key(d)}: ${JSON.stringify(d.before.text)} -> ${JSON.stringify(d.after.text)}`),
        ...diff.removed.map((d) => `- ${key(d)}: ${JSON.stringify(d.value.text)}`),
      ];
      print(options, diff, lines.length ? lines.join('\n') : `No changes from ${from} to ${to}`);
    });

  release
    .command('publish')
    .description("make a release a distribution's latest (sends the webhook event release.published)")
    .argument('<name>', 'the release name')
    .requiredOption('--distribution <name>', 'the distribution to publish to')
    .option('--workspace <id>', 'workspace id (default: the only one)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: WorkspaceOption & { distribution: string }) => {
      const published = await withServices(async (s) =>
        s.distributions.publish(
          { workspaceId: await inWorkspace(s, options), actor: CLI_ACTOR },
          options.distribution,
          name,
        ),
      );
      print(options, published, `Published ${name} to ${options.distribution}: its latest from now on`);
    });
}
