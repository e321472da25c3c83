/**
 * The webhook vocabulary: the events a webhook subscribes to, and the resource as the API shows it.
 */

export const EVENT_NAMES = [
  'textItems.created',
  'textItems.updated',
  'textItems.deleted',
  'components.created',
  'components.updated',
  'components.deleted',
  'components.published',
  'statuses.updated',
  'developerIds.updated',
  'variants.changed',
  'variables.changed',
  'folders.changed',
  'projects.changed',
  'styleGuides.changed',
  'comment.created',
  'comment.updated',
  'comment.resolved',
  'comment.reopened',
  'comment.deleted',
  'suggestion.created',
  'suggestion.accepted',
  'suggestion.rejected',
  'suggestion.withdrawn',
  'release.published',
  'webhook.test',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Subscribes to every event. */
export const ALL_EVENTS = '*';

export interface Webhook {
  id: string;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

export const DELIVERY_STATES = ['pending', 'succeeded', 'retrying', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
