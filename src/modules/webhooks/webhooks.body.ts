import { CHANGES_PER_ROW, changeId, type RecordedChange } from '../changes/index.js';

/**
 * The body of an event's delivery, assembled around its changes' JSON text; the result is exactly
 * `JSON.stringify` of the payload object (keys in this order), which is what a receiver
 * re-serialising the parsed body gets, and what the signature covers.
 */
export interface StoredEvent {
  name: string;
  uuid: string;
  workspaceId: number;
  at: string;
  actor: string;
  sequence: number;
  /** JSON array text. */
  changes: string;
}

const q = JSON.stringify;

export function eventBody(event: StoredEvent): string {
  const { name, uuid, workspaceId, at, actor, sequence, changes } = event;
  return `{"event":${q(name)},"data":{"id":${q(uuid)},"workspaceId":${q(String(workspaceId))},"at":${q(at)},"actor":${q(actor)},"sequence":${sequence},"changes":${changes}}}`;
}

/** The test delivery sent before a webhook's URL is saved. */
export function testBody(webhookId: string, workspaceId: number, at: string, id: string): string {
  return JSON.stringify({ event: 'webhook.test', data: { id, workspaceId: String(workspaceId), at, webhookId } });
}

/**
 * An event stores which changes of the log it carries, as ranges of change ids
 * (`{"c":[[first,last]]}`: every change of the workspace from `first` to `last`), not the changes
 * themselves: the write pays for a few ids, and the JSON is written when the event is sent. The
 * log's rows never change, so every attempt sends the same body. `changes` are the event's
 * changes as `[index in the write, id]`: changes next to each other in the write are next to each
 * other in the log (writers to one workspace take turns), so they make one range even where their
 * ids are not consecutive numbers (the next row's first change follows the previous row's last).
 * Events stored before a row could hold several changes name rows (`{"r":[[a,b]]}`); a stored
 * JSON array is taken as the changes themselves.
 */
export function changeRefs(changes: readonly (readonly [number, number])[]): string {
  const ranges: [number, number][] = [];
  let lastIndex = Number.NaN;
  for (const [index, id] of changes) {
    const last = ranges.at(-1);
    if (last && index === lastIndex + 1) last[1] = id;
    else ranges.push([id, id]);
    lastIndex = index;
  }
  return JSON.stringify({ c: ranges });
}

export type ChangesInRanges = (
  workspaceId: number,
  ranges: readonly (readonly [number, number])[],
) => Promise<RecordedChange[]>;

/** The JSON array of an event's changes, from what the event stores. */
export async function changesJson(stored: string, workspaceId: number, inRanges: ChangesInRanges): Promise<string> {
  if (stored.startsWith('[')) return stored;
  const refs = JSON.parse(stored) as { c?: [number, number][]; r?: [number, number][] };
  const ranges =
    refs.c ?? (refs.r ?? []).map(([from, to]) => [changeId(from, 0), changeId(to, CHANGES_PER_ROW - 1)] as const);
  return JSON.stringify(await inRanges(workspaceId, ranges));
}
