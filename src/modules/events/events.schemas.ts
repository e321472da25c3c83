import { type Static, Type } from 'typebox';
import { DeveloperId } from '../../http/schemas.js';
import { PRESENCE_KINDS } from './events.types.js';

export const EventsQuery = Type.Object({
  lastEventId: Type.Optional(
    Type.String({
      description:
        'Where to resume, for clients that cannot send the `Last-Event-ID` header on their first connection; the header wins',
    }),
  ),
});

const ClientId = Type.String({
  description: "The browser tab's own random id (8 to 64 letters, digits, `_` or `-`)",
  minLength: 8,
  maxLength: 64,
});

export const PresenceBody = Type.Object(
  {
    clientId: ClientId,
    kind: Type.Unsafe<(typeof PRESENCE_KINDS)[number]>({ type: 'string', enum: [...PRESENCE_KINDS] }),
    id: DeveloperId,
  },
  { additionalProperties: false },
);

/** PUT /v2/presence's body: this tab has this text open. */
export type PresenceBody = Static<typeof PresenceBody>;

export const PresenceLeaveBody = Type.Object(
  {
    clientId: ClientId,
    kind: Type.Optional(Type.Unsafe<(typeof PRESENCE_KINDS)[number]>({ type: 'string', enum: [...PRESENCE_KINDS] })),
    id: Type.Optional(Type.String({ description: 'The text closed: the entry goes only if it still names it' })),
  },
  { additionalProperties: false },
);

export const PresenceRecord = Type.Object({
  email: Type.String(),
  clientId: Type.String(),
  kind: Type.String({ enum: [...PRESENCE_KINDS] }),
  id: Type.String({ description: 'The developer ID of the open text' }),
  expiresAt: Type.String({ description: 'When the entry goes unless its tab sends another heartbeat (ISO 8601)' }),
});

export const PresenceList = Type.Object({ presence: Type.Array(PresenceRecord) });
