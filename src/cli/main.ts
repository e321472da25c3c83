import { Command, CommanderError } from 'commander';
import { type Config, loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Role } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { passwordLinkUrl, ROLES } from '../modules/accounts/people.service.js';
import { serve } from '../server.js';
import { createServices, type Services } from '../services.js';
import type { CliIo, Json } from './io.js';
import { registerReleaseCommands } from './release-commands.js';
import { registerWorkspaceCommands } from './workspace-commands.js';

export type { CliIo, Json };

const defaultIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  terminal: process.stderr.isTTY ? (text) => process.stderr.write(text) : undefined,
};

/**
 * The administrator's tool. Every command reads DATABASE_URL like the server, brings the schema up
 * to date first, and with `--json` prints one JSON document for scripts.
 */
export async function main(argv: string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode = 0;

  async function withServices<T>(work: (services: Services, config: Config) => Promise<T>): Promise<T> {
    const config = loadConfig(io.env);
    const database: DatabaseHandle = openDatabase(config.database);
    try {
      await migrateToLatest(database.db);
      return await work(createServices(database.db, { sessions: config.sessions, limits: config.limits }), config);
    } finally {
      await database.close();
    }
  }

  function print(options: Json, value: unknown, human: string): void {
    io.out(options.json ? JSON.stringify(value) : human);
  }

  const workspaceId = (value: string): number => {
    const id = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(id) || id < 1)
      throw new AppError('bad_request', `--workspace: '${value}' is not a workspace id`);
    return id;
  };

  const role = (value: string): Role => {
    if (!(ROLES as readonly string[]).includes(value)) {
      throw new AppError('bad_request', `--role: '${value}' is not one of ${ROLES.join(', ')}`);
    }
    return value as Role;
  };

  const program = new Command('copydesk')
    .description('copydesk: the text of your product, served over the Workspace Text Content API v2')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s.trimEnd()),
      // With --json, usage errors are a JSON document too (printed in the catch below).
      writeErr: (s) => {
        if (!argv.includes('--json')) io.err(s.trimEnd());
      },
    });

  program
    .command('serve')
    .description('start the HTTP server (HOST, PORT and DATABASE_URL from the environment)')
    .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (env PORT, default 8080)')
    .action(async (options: { host?: string; port?: string }) => {
      const env = { ...io.env };
      if (options.host) env.HOST = options.host;
      if (options.port) env.PORT = options.port;
      await serve(loadConfig(env), io.out);
    });

  program
    .command('migrate')
    .description('bring the database schema up to date')
    .option('--json', 'print JSON')
    .action(async (options: Json) => {
      const config = loadConfig(io.env);
      const database = openDatabase(config.database);
      try {
        const applied = await migrateToLatest(database.db);
        print(
          options,
          { applied },
          applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Schema is up to date',
        );
      } finally {
        await database.close();
      }
    });

  const workspace = program.command('workspace').description('manage workspaces');
  workspace
    .command('create')
    .description('create a workspace with the default workflow and style guide')
    .requiredOption('--name <name>', 'workspace name')
    .option('--json', 'print JSON')
    .action(async (options: Json & { name: string }) => {
      const result = await withServices((s) => s.accounts.createWorkspace(options.name));
      print(options, result, `Created workspace ${result.id}`);
    });

  registerWorkspaceCommands(workspace, { io, withServices, print, workspaceId });

  registerReleaseCommands(program, { io, withServices, print, workspaceId });

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description('add a user to a workspace')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--email <email>', 'email address')
    .option('--name <name>', 'display name')
    .option('--role <role>', 'admin, editor, commenter or viewer', 'editor')
    .option('--json', 'print JSON')
    .action(async (options: Json & { workspace: string; email: string; name?: string; role: string }) => {
      const result = await withServices((s) =>
        s.accounts.createUser({
          workspaceId: workspaceId(options.workspace),
          email: options.email,
          name: options.name,
          role: role(options.role),
        }),
      );
      print(options, result, `Created user ${result.email} (${result.role})`);
    });
  user
    .command('invite')
    .description("print a one-time link that sets a user's password for the web app")
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--email <email>', 'the user')
    .option('--json', 'print JSON')
    .action(async (options: Json & { workspace: string; email: string }) => {
      const result = await withServices(async (s, config) => {
        const { token } = await s.people.passwordLink(workspaceId(options.workspace), options.email);
        return { email: options.email.trim().toLowerCase(), passwordLink: passwordLinkUrl(config.publicUrl, token) };
      });
      print(
        options,
        result,
        `Send ${result.email} this link to set a password (it works once, for ${Math.round(loadConfig(io.env).sessions.passwordLinkMs / 3_600_000)} hours):\n${result.passwordLink}`,
      );
    });

  const key = program.command('key').description('manage API keys');
  key
    .command('create')
    .description('create an API key for a workspace user; the key is printed once')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--email <email>', 'email of the user the key acts as')
    .option('--name <label>', 'a label for the key')
    .option('--json', 'print JSON')
    .action(async (options: Json & { workspace: string; email: string; name?: string }) => {
      const result = await withServices((s) =>
        s.accounts.createKey({ workspaceId: workspaceId(options.workspace), email: options.email, name: options.name }),
      );
      print(options, result, `Created key ${result.id}. It is shown this once:\n${result.key}`);
    });
  key
    .command('list')
    .description("list a workspace's keys (never the keys themselves)")
    .requiredOption('--workspace <id>', 'workspace id')
    .option('--json', 'print JSON')
    .action(async (options: Json & { workspace: string }) => {
      const keys = await withServices((s) => s.accounts.listKeys(workspaceId(options.workspace)));
      const lines = keys.map(
        (k) => `${k.id}  ${k.prefix}…  ${k.email}  ${k.name}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}`,
      );
      print(options, keys, lines.length ? lines.join('\n') : 'No keys');
    });
  key
    .command('revoke')
    .description('revoke a key at once')
    .argument('<keyId>', 'the id shown by key create / key list')
    .option('--json', 'print JSON')
    .action(async (keyId: string, options: Json) => {
      await withServices((s) => s.accounts.revokeKey(keyId));
      print(options, { id: keyId, revoked: true }, `Revoked key ${keyId}`);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      exitCode = error.exitCode;
      if (exitCode !== 0 && argv.includes('--json')) {
        io.err(JSON.stringify({ error: error.message.replace(/^error: /, '') }));
      }
    } else {
      const message = error instanceof Error ? error.message : String(error);
      io.err(argv.includes('--json') ? JSON.stringify({ error: message }) : `copydesk: ${message}`);
      exitCode = 1;
    }
  }
  return exitCode;
}
