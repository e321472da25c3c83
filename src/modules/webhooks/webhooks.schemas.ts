import { type Static, Type } from 'typebox';
import { batchBody, DeveloperId, Nullable } from '../../http/schemas.js';
import { DELIVERY_STATES, EVENT_NAMES } from './webhooks.types.js';

export const DELIVERIES_MAX_LIMIT = 1000;

const EventList = Type.Array(Type.String({ minLength: 1 }), {
  maxItems: 100,
  description: `Event names (${EVENT_NAMES.join(', ')}), or "*" for all`,
});

export const Webhook = Type.Object({
  id: Type.String({ description: 'Developer ID' }),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Nullable(Type.String({ description: 'Why copydesk disabled the webhook, when it did' })),
  createdAt: Type.String(),
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'An https: or http: URL, without credentials' });

export const createBody = (maxItems: number) =>
  batchBody(
    'webhooks',
    {
      name: Name,
      url: Url,
      events: EventList,
      developerId: Type.Optional(DeveloperId),
      enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
    },
    maxItems,
  );

export const updateBody = (maxItems: number) =>
  batchBody(
    'updates',
    {
      developerId: DeveloperId,
      name: Type.Optional(Name),
      url: Type.Optional(Url),
      events: Type.Optional(EventList),
      enabled: Type.Optional(Type.Boolean()),
    },
    maxItems,
  );

/** One webhook of POST /v2/webhooks, and one change of PATCH /v2/webhooks. */
export type NewWebhookInput = Static<ReturnType<typeof createBody>>['webhooks'][number];
export type WebhookUpdate = Static<ReturnType<typeof updateBody>>['updates'][number];

export const SigningKeyBody = Type.Object(
  { signingKey: Type.String({ maxLength: 1024, description: 'At least 32 characters' }) },
  { additionalProperties: false },
);

export const SigningKeyStatus = Type.Object({
  configured: Type.Boolean(),
  lastFour: Nullable(Type.String({ description: 'The last four characters of the key' })),
});

export const DeliveriesQuery = Type.Object({
  webhookId: Type.Optional(Type.String({ description: "A webhook's developer ID" })),
  event: Type.Optional(Type.String({ description: 'An event name' })),
  status: Type.Optional(Type.String({ description: `One of ${DELIVERY_STATES.join(', ')}` })),
  limit: Type.Optional(
    Type.Integer({ description: `Attempts per page, default 100, at most ${DELIVERIES_MAX_LIMIT}` }),
  ),
  cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the previous page' })),
});

/** GET /v2/webhooks/deliveries's query as the service takes it (`status` and `limit` checked there). */
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const Delivery = Type.Object({
  id: Type.String({ description: 'The attempt' }),
  deliveryId: Type.String({ description: 'The delivery of one event to one webhook: what redelivery takes' }),
  webhookId: Type.String(),
  event: Type.String(),
  eventId: Type.String({ description: 'The event (`data.id`), the same in every webhook and retry' }),
  requestId: Nullable(Type.String({ description: 'The `x-ditto-request-id` sent; null until sent' })),
  attempt: Type.Integer(),
  at: Nullable(Type.String({ description: 'When it was sent; null while pending' })),
  statusCode: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  nextAttemptAt: Nullable(Type.String({ description: 'When the next attempt is (or this one, while pending) due' })),
  state: Type.Unsafe<string>({ type: 'string', enum: [...DELIVERY_STATES] }),
  payload: Type.Unknown({ description: 'The body as sent' }),
  responseBody: Nullable(Type.String({ description: "The start (at most 4 KiB) of the receiver's answer" })),
});

export const redeliverBody = (maxItems: number) =>
  Type.Object(
    {
      ids: Type.Array(Type.String({ pattern: '^[0-9]{1,16}$', description: 'A `deliveryId`' }), {
        minItems: 1,
        maxItems,
      }),
    },
    { additionalProperties: false },
  );
