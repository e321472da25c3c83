/**
 * The live event stream (`GET /v2/events`, docs/events.md): the change log of a workspace as
 * server-sent events, and who has which text open. Read top-down: what a stream is, the hub that
 * feeds every open stream of this server (a room per workspace), then how it learns of commits.
 *
 * The change log is the one source: an event is one write, its id the workspace revision the
 * write made. A room reads the log after the lowest position of its streams whenever it learns
 * that the workspace's revision moved, and hands each stream the writes past its own position,
 * so a stream that resumes with `Last-Event-ID` gets exactly the writes it has not seen, whatever
 * server it reconnects to. News of a revision comes from this process's own writes (at once),
 * from PostgreSQL's notifications (writes of other servers), and from a poll of the workspaces
 * that have streams open (SQLite written by another process, or a notification connection that
 * was down); a wrong or late piece of news costs a read, never an event.
 */
import type { EventsConfig } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { HistoryService, LoggedWrite } from '../changes/index.js';
import type { PresenceEntry, PresenceStore } from './events.types.js';
import { createPresence } from './presence.service.js';

/** Rows of the log per read, and changes per event (a larger write says it was cut short). */
const ROWS_PER_READ = 500;
const CHANGES_PER_EVENT = 200;
/** A resume further back than this many revisions gets a reset: reading everything again is cheaper. */
export const MAX_REPLAY_REVISIONS = 10_000;
/** A client whose socket holds this much unsent is too slow: its stream ends, it resumes later. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** While PostgreSQL's notifications are listened to, one poll in this many looks (a safety net). */
const NOTIFIED_POLL_EVERY = 10;
/** How often the rooms look for presence entries that came, went or expired on other servers. */
const PRESENCE_CHECK_MS = 1000;

/** Where a stream's bytes go: the route's response body. */
export interface StreamSink {
  /** Writes a chunk; answers the bytes still waiting to be sent to the client. */
  write(chunk: string): number;
  end(): void;
}

interface Stream {
  sink: StreamSink;
  owner: string;
  /** Whether the key or session that opened the stream still authenticates its user. */
  stillAllowed: (() => Promise<boolean>) | null;
  checking: boolean;
  /** The revision of the last write this stream has been given (or skipped, for a write with no changes). */
  position: number;
  openedAt: number;
  closed: boolean;
}

interface Room {
  workspaceId: number;
  streams: Set<Stream>;
  /** The highest revision known to be committed. */
  known: number;
  /** Reading the log for the room's streams (`deliver`). */
  delivery: Rerun;
  /** The presence entries last sent, as compared (no expiry times). */
  presence: string | null;
  /** Reading the room's presence entries (`checkPresence`). */
  presenceRead: Rerun;
}

/** A read that runs one at a time, and whether it was asked for again while it ran. */
interface Rerun {
  running: boolean;
  again: boolean;
}

/**
 * Runs `read` unless it is running already; then it runs once more after, since the read under
 * way may have begun before what the caller was told of had been written.
 */
async function oneAtATime(state: Rerun, read: () => Promise<void>): Promise<void> {
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = true;
  try {
    do {
      state.again = false;
      await read();
    } while (state.again);
  } finally {
    state.running = false;
  }
}

export interface OpenStream {
  close(): void;
}

export function createEvents(deps: {
  history: Pick<HistoryService, 'writesAfter' | 'retainedRevisions' | 'revisionsOf'>;
  /** Where presence entries live: Redis when configured, else the database. */
  presenceStore: PresenceStore;
  config: EventsConfig;
  /** The time in ms for presence entries; tests give a clock they move by hand. */
  now?: () => number;
  /** SQLite: changes whenever any connection commits, so an idle poll costs no query. */
  changeToken?: () => Promise<string | null> | null;
  onError?: (error: unknown) => void;
}) {
  const { history, config } = deps;
  // What a tab's heartbeat writes, this server's streams of the workspace hear at once.
  const presence = createPresence({
    store: deps.presenceStore,
    ttlMs: config.presenceTtlMs,
    ...(deps.now && { now: deps.now }),
    changed: presenceChanged,
  });
  const rooms = new Map<number, Room>();
  const owners = new Map<string, number>();
  let timers: NodeJS.Timeout[] = [];
  let lastToken: string | null = null;
  let polls = 0;
  let feedLive = false;
  const fail = (error: unknown) => deps.onError?.(error);

  // -- Sending ---------------------------------------------------------------------------------

  const frame = (event: string, data: unknown, id?: number) =>
    `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

  function send(room: Room, stream: Stream, chunk: string): void {
    if (stream.closed) return;
    if (stream.sink.write(chunk) > MAX_BUFFERED_BYTES) end(room, stream);
  }

  function end(room: Room, stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    room.streams.delete(stream);
    const left = (owners.get(stream.owner) ?? 1) - 1;
    if (left > 0) owners.set(stream.owner, left);
    else owners.delete(stream.owner);
    if (room.streams.size === 0 && rooms.get(room.workspaceId) === room) rooms.delete(room.workspaceId);
    if (rooms.size === 0) stopTimers();
    stream.sink.end();
  }

  const changeEvent = (write: LoggedWrite) =>
    frame(
      'change',
      {
        revision: String(write.revision),
        at: write.at,
        actor: write.actor,
        changes: write.changes,
        ...(write.cut || write.count > write.changes.length ? { truncated: true } : {}),
      },
      write.revision,
    );

  const presenceEvent = (entries: readonly PresenceEntry[]) =>
    frame('presence', { presence: entries.map(presenceRecord) });

  // -- Delivering the log ----------------------------------------------------------------------

  /**
   * Reads the log after the lowest position of the room's streams and sends each stream what it
   * has not had. One read at a time per room; news arriving meanwhile runs it again after.
   */
  async function deliver(room: Room): Promise<void> {
    try {
      await oneAtATime(room.delivery, async () => {
        for (;;) {
          if (room.streams.size === 0) return;
          const target = room.known;
          // The streams this read serves: one that joins while it runs (resuming from further
          // back) is served by the next, which starts from its position.
          const served = [...room.streams];
          let from = Number.POSITIVE_INFINITY;
          for (const stream of served) from = Math.min(from, stream.position);
          if (from >= target) break;
          const { writes, more } = await history.writesAfter(room.workspaceId, from, {
            rowLimit: ROWS_PER_READ,
            changeLimit: CHANGES_PER_EVENT,
          });
          for (const write of writes) {
            const event = changeEvent(write);
            for (const stream of served) {
              if (stream.closed || stream.position >= write.revision) continue;
              stream.position = write.revision;
              send(room, stream, event);
            }
          }
          if (!more) {
            // Everything up to `target` was committed before the read began: the writes after the
            // last one read changed nothing the log holds.
            for (const stream of served) stream.position = Math.max(stream.position, target);
          }
        }
      });
    } catch (error) {
      // The next poll tries again: the positions did not move past what was sent.
      fail(error);
    }
  }

  /** The workspace's revision reached `revision` (committed): its streams get what is new. */
  function revision(workspaceId: number, revision: number): void {
    const room = rooms.get(workspaceId);
    if (!room || !Number.isSafeInteger(revision)) return;
    if (revision > room.known) room.known = revision;
    void deliver(room);
  }

  // -- Presence --------------------------------------------------------------------------------

  /**
   * Reads the room's presence entries and tells its streams when they changed (or `only` that
   * stream, which has just joined, what they are). One read at a time per room; a change told
   * meanwhile runs it again after.
   */
  async function checkPresence(room: Room, only?: Stream): Promise<void> {
    if (only) {
      try {
        send(room, only, presenceEvent(await presence.list(room.workspaceId)));
      } catch (error) {
        fail(error);
      }
      return;
    }
    try {
      await oneAtATime(room.presenceRead, async () => {
        const entries = await presence.list(room.workspaceId);
        const seen = JSON.stringify(entries.map((e) => [e.email, e.clientId, e.kind, e.id]));
        if (seen === room.presence) return;
        room.presence = seen;
        const event = presenceEvent(entries);
        for (const stream of [...room.streams]) send(room, stream, event);
      });
    } catch (error) {
      fail(error);
    }
  }

  // -- The timers: heartbeats, the poll, presence ------------------------------------------------

  async function poll(force = false): Promise<void> {
    polls += 1;
    // PostgreSQL, its notifications listened to: they announce every commit, so the poll is only
    // a safety net, one round in `NOTIFIED_POLL_EVERY`.
    if (!force && feedLive && polls % NOTIFIED_POLL_EVERY !== 0) return;
    const token = deps.changeToken?.() ?? null;
    const now = token === null ? null : await token;
    // SQLite: nothing committed anywhere since the last look, nothing to read.
    if (now !== null && now === lastToken) return;
    lastToken = now;
    if (rooms.size === 0) return;
    try {
      const revisions = await history.revisionsOf([...rooms.keys()]);
      for (const [workspaceId, current] of revisions) revision(workspaceId, current);
    } catch (error) {
      fail(error);
    }
  }

  function heartbeat(): void {
    const now = Date.now();
    for (const room of [...rooms.values()]) {
      for (const stream of [...room.streams]) {
        // An old stream ends: the client reconnects, and is authenticated again.
        if (now - stream.openedAt >= config.streamMaxMs) end(room, stream);
        else {
          send(room, stream, ': heartbeat\n\n');
          void recheck(room, stream);
        }
      }
    }
  }

  /** A revoked key or an ended session ends its streams by the next heartbeat. */
  async function recheck(room: Room, stream: Stream): Promise<void> {
    if (!stream.stillAllowed || stream.checking) return;
    stream.checking = true;
    try {
      if (!(await stream.stillAllowed())) end(room, stream);
    } catch (error) {
      // The database did not answer: the stream goes on, and is asked again at the next heartbeat.
      fail(error);
    } finally {
      stream.checking = false;
    }
  }

  function startTimers(): void {
    if (timers.length > 0) return;
    lastToken = null;
    timers = [
      setInterval(heartbeat, config.heartbeatMs),
      setInterval(() => void poll(), config.pollMs),
      setInterval(
        () => {
          for (const room of rooms.values()) void checkPresence(room);
        },
        Math.min(PRESENCE_CHECK_MS, Math.max(10, Math.floor(presence.ttlMs / 4))),
      ),
    ];
    for (const timer of timers) timer.unref();
  }

  function stopTimers(): void {
    for (const timer of timers) clearInterval(timer);
    timers = [];
  }

  // -- Opening a stream ------------------------------------------------------------------------

  /**
   * Where a stream starts: after `lastEventId` when the log still holds everything since, else at
   * the workspace's current revision with a `reset` first (the client reads everything again).
   */
  async function startOf(workspaceId: number, lastEventId: string | undefined) {
    const { oldest, current = 0 } = await history.retainedRevisions(workspaceId);
    if (lastEventId === undefined || lastEventId === '') return { position: current, current, reset: null };
    const asked = /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : null;
    let reset: string | null = null;
    if (asked === null) reset = 'Last-Event-ID is not a revision of this workspace';
    else if (asked > current) reset = 'Last-Event-ID is ahead of this workspace (another database, or a restore)';
    else if (current - asked > MAX_REPLAY_REVISIONS) reset = `more than ${MAX_REPLAY_REVISIONS} revisions to replay`;
    else if (asked < current && (oldest === null || oldest > asked + 1))
      reset = 'the history since Last-Event-ID is no longer kept';
    return reset === null ? { position: asked as number, current, reset } : { position: current, current, reset };
  }

  async function open(input: {
    workspaceId: number;
    /** Whose stream it is (a key, or a person's sessions), for the limit of streams. */
    owner: string;
    lastEventId: string | undefined;
    sink: StreamSink;
    /** Asked at each heartbeat: false (a revoked key, an ended session) ends the stream. */
    stillAllowed?: () => Promise<boolean>;
  }): Promise<OpenStream> {
    const { workspaceId, owner, sink } = input;
    if ((owners.get(owner) ?? 0) >= config.maxStreams) {
      throw new AppError(
        'rate_limited',
        `At most ${config.maxStreams} event streams at once for one key or person: close another first`,
        5,
      );
    }
    owners.set(owner, (owners.get(owner) ?? 0) + 1);
    let start: Awaited<ReturnType<typeof startOf>>;
    try {
      start = await startOf(workspaceId, input.lastEventId);
    } catch (error) {
      const left = (owners.get(owner) ?? 1) - 1;
      if (left > 0) owners.set(owner, left);
      else owners.delete(owner);
      throw error;
    }
    let room = rooms.get(workspaceId);
    if (!room) {
      room = {
        workspaceId,
        streams: new Set(),
        known: start.current,
        delivery: { running: false, again: false },
        presence: null,
        presenceRead: { running: false, again: false },
      };
      rooms.set(workspaceId, room);
    }
    const stream: Stream = {
      sink,
      owner,
      stillAllowed: input.stillAllowed ?? null,
      checking: false,
      position: start.position,
      openedAt: Date.now(),
      closed: false,
    };
    room.streams.add(stream);
    startTimers();
    const joined = room;
    // A reconnecting browser waits this long (a second by default), not its default three.
    send(joined, stream, `retry: ${config.retryMs}\n\n`);
    if (start.reset !== null) {
      send(joined, stream, frame('reset', { revision: String(start.current), reason: start.reset }, start.current));
    }
    send(joined, stream, frame('ready', { revision: String(start.current) }));
    revision(workspaceId, start.current);
    void checkPresence(joined, stream);
    return { close: () => end(joined, stream) };
  }

  /** A presence entry of the workspace changed on this server: its streams are told at once. */
  function presenceChanged(workspaceId: number): void {
    const room = rooms.get(workspaceId);
    if (room) void checkPresence(room);
  }

  return {
    open,
    revision,
    /**
     * PostgreSQL's notifications are (true) or are not (false) listened to: while they are, every
     * commit is announced and the poll rests; when they come back, something may have been missed.
     */
    notified(live: boolean): void {
      feedLive = live;
      if (live) void poll(true);
    },
    presence,
    /** Streams open on this server (for tests and the shutdown). */
    openStreams(): number {
      let count = 0;
      for (const room of rooms.values()) count += room.streams.size;
      return count;
    },
    /** Ends every stream (the server is closing): the clients reconnect elsewhere. */
    async close(): Promise<void> {
      for (const room of [...rooms.values()]) for (const stream of [...room.streams]) end(room, stream);
      stopTimers();
      await presence.close();
    },
  };
}

export type EventsService = ReturnType<typeof createEvents>;

/** A presence entry as the API shows it. */
export function presenceRecord(entry: PresenceEntry) {
  return {
    email: entry.email,
    clientId: entry.clientId,
    kind: entry.kind,
    id: entry.id,
    expiresAt: new Date(entry.expiresAt).toISOString(),
  };
}
