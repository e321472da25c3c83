/**
 * Pure helpers of the project order panel (BlockOrder.tsx): unit-tested in test/web/order.test.ts.
 */

/** `list` with the entry at `from` moved to `to`; the same array when the move is out of range or a no-op. */
export function moveEntry<T>(list: readonly T[], from: number, to: number): readonly T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return list;
  const next = [...list];
  const [moved] = next.splice(from, 1) as [T];
  next.splice(to, 0, moved);
  return next;
}

/**
 * The texts of a project (in project order) grouped by block, for reordering within a block:
 * one group per block in block order (empty ones included), then the texts outside blocks. The
 * records name a text's block by its name, so two blocks of one name share their texts' group.
 */
export function groupByBlock<T extends { blockName: string | null }>(
  texts: readonly T[],
  blocks: readonly { id: string; name: string }[],
): { key: string; title: string; texts: T[] }[] {
  const byName = new Map<string | null, T[]>();
  for (const text of texts) {
    const group = byName.get(text.blockName) ?? [];
    group.push(text);
    byName.set(text.blockName, group);
  }
  const seen = new Set<string>();
  const groups = blocks.map((b) => {
    const first = !seen.has(b.name);
    seen.add(b.name);
    return { key: `block:${b.id}`, title: b.name, texts: first ? (byName.get(b.name) ?? []) : [] };
  });
  return [...groups, { key: 'outside', title: 'Outside blocks', texts: byName.get(null) ?? [] }];
}

/**
 * `list` with the entries whose keys `order` names put in that order, in the places those entries
 * held; the others stay where they were. A saved move applied to what the panel holds, so that
 * it shows the move before the server's order is read again.
 */
export function reorderSubset<T>(list: readonly T[], keyOf: (entry: T) => string, order: readonly string[]): T[] {
  const wanted = new Set(order);
  const byKey = new Map(list.filter((e) => wanted.has(keyOf(e))).map((e) => [keyOf(e), e] as const));
  const next = order.map((key) => byKey.get(key)).filter((e): e is T => e !== undefined);
  let i = 0;
  return list.map((entry) => (wanted.has(keyOf(entry)) && byKey.has(keyOf(entry)) ? (next[i++] as T) : entry));
}
