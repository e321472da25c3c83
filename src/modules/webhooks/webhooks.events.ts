import type { Change, ChangeKind } from '../changes/index.js';
import { EVENT_NAMES, type EventName } from './webhooks.types.js';

/**
 * Which events one write request sends, from its changes alone. Pure: the outbox calls it inside
 * the write's transaction and the tests call it with tables of changes.
 */

/** An event carries at most this many changes; a larger write is split into several events. */
export const MAX_CHANGES_PER_EVENT = 1000;

/** The events of kinds whose every change is one "something changed" event. */
const CHANGED_EVENT: Partial<Record<ChangeKind, EventName>> = {
  variant: 'variants.changed',
  variable: 'variables.changed',
  folder: 'folders.changed',
  project: 'projects.changed',
  base: 'projects.changed',
  block: 'projects.changed',
  styleGuide: 'styleGuides.changed',
  // The workflow itself: its list of statuses changed.
  statuses: 'statuses.updated',
};

const TEXT_EVENTS = {
  textItem: { created: 'textItems.created', updated: 'textItems.updated', deleted: 'textItems.deleted' },
  component: { created: 'components.created', updated: 'components.updated', deleted: 'components.deleted' },
} as const;

/** A comment's change is one event per action; a thread's resolution is its first comment's. */
const COMMENT_EVENTS: Partial<Record<Change['action'], EventName>> = {
  created: 'comment.created',
  updated: 'comment.updated',
  resolved: 'comment.resolved',
  reopened: 'comment.reopened',
  deleted: 'comment.deleted',
};

/**
 * A suggestion's created, accepted, rejected and withdrawn are events; its other changes (marked
 * stale by a refused accept) are not. An accept's text change is the text's own event as well.
 */
const SUGGESTION_EVENTS: Partial<Record<Change['action'], EventName>> = {
  created: 'suggestion.created',
  accepted: 'suggestion.accepted',
  rejected: 'suggestion.rejected',
  withdrawn: 'suggestion.withdrawn',
};

/** Every event one change belongs to (none for workspace, user and webhook changes). */
export function eventsOfChange(change: Pick<Change, 'kind' | 'action' | 'fields'>): EventName[] {
  const out: EventName[] = [];
  const { kind, action } = change;
  if (kind === 'textItem' || kind === 'component') {
    const names = TEXT_EVENTS[kind];
    if (action === 'published') out.push('components.published');
    else if (action === 'created' || action === 'deleted') out.push(names[action]);
    else {
      out.push(names.updated);
      if ('status' in change.fields) out.push('statuses.updated');
    }
  } else if (kind === 'comment') {
    const name = COMMENT_EVENTS[action];
    if (name) out.push(name);
  } else if (kind === 'distribution') {
    // A release published to a distribution: what apps reading `latest` get from now on.
    if (action === 'published') out.push('release.published');
  } else if (kind === 'suggestion') {
    const name = SUGGESTION_EVENTS[action];
    if (name) out.push(name);
  } else {
    const name = CHANGED_EVENT[kind];
    if (name) out.push(name);
  }
  if (action === 'renamed' && out.length > 0) out.push('developerIds.updated');
  return out;
}

export interface PlannedEvent<C> {
  name: EventName;
  changes: C[];
}

/**
 * The events of one write, in catalogue order, each with its changes in the write's order and at
 * most `MAX_CHANGES_PER_EVENT` of them. A publish is one `components.published` holding all of the
 * write's changes (the new component and the item it now links), never also a create or update.
 */
export function eventsOfWrite<C extends Pick<Change, 'kind' | 'action' | 'fields'>>(
  changes: readonly C[],
): PlannedEvent<C>[] {
  const byName = new Map<EventName, C[]>();
  // A component's publish (a release's publish to a distribution is an event of its own).
  const publish = changes.some((c) => c.action === 'published' && c.kind !== 'distribution');
  for (const change of changes) {
    const names = eventsOfChange(change);
    if (names.length === 0) continue;
    for (const name of publish ? (['components.published'] as const) : names) {
      const list = byName.get(name);
      if (list) list.push(change);
      else byName.set(name, [change]);
    }
  }
  const out: PlannedEvent<C>[] = [];
  for (const name of EVENT_NAMES) {
    const list = byName.get(name);
    if (!list) continue;
    for (let start = 0; start < list.length; start += MAX_CHANGES_PER_EVENT) {
      out.push({ name, changes: list.slice(start, start + MAX_CHANGES_PER_EVENT) });
    }
  }
  return out;
}

/** Whether a webhook subscribed to `events` gets `name`. */
export const subscribes = (events: readonly string[], name: string) => events.includes('*') || events.includes(name);
