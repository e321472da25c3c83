import type { RecordedChange } from '../changes/index.js';

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
 * An event stores which changes of the log it carries, as ranges of change ids (`{"r":[[a,b]]}`),
 * not the changes themselves: the write pays for a few ids, and the JSON is written when the
 * event is sent. The log's rows never change, so every attempt sends the same body. A stored
 * JSON array is taken as the changes themselves.
 */
export function changeRefs(ids: readonly number[]): string {
  const ranges: [number, number][] = [];
  for (const id of ids) {
    const last = ranges.at(-1);
    if (last && id === last[1] + 1) last[1] = id;
    else ranges.push([id, id]);
  }
  return JSON.stringify({ r: ranges });
}

export type ChangesById = (workspaceId: number, ids: readonly number[]) => Promise<RecordedChange[]>;

/** The JSON array of an event's changes, from what the event stores. */
export async function changesJson(stored: string, workspaceId: number, byIds: ChangesById): Promise<string> {
  if (stored.startsWith('[')) return stored;
  const { r } = JSON.parse(stored) as { r: [number, number][] };
  const ids: number[] = [];
  for (const [from, to] of r) for (let id = from; id <= to; id += 1) ids.push(id);
  return JSON.stringify(await byIds(workspaceId, ids));
}
