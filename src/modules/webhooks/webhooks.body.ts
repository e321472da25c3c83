/**
 * The body of an event's delivery. The changes are kept as the JSON text written with the event,
 * so the body is assembled around them rather than parsed and written again for every attempt;
 * the result is exactly `JSON.stringify` of the payload object (keys in this order), which is what
 * a receiver re-serialising the parsed body gets, and what the signature covers.
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
