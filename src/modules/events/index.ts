/** The live event stream and presence (docs/events.md). Other code uses only what is exported here. */
export { createEvents, type EventsService, MAX_REPLAY_REVISIONS } from './events.service.js';
export type { PresenceEntry, PresenceStore } from './events.types.js';
export { redisPresenceStore } from './presence.redis.js';
export { databasePresenceStore } from './presence.service.js';
