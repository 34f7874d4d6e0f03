import type { AdminTeamTreeNode } from '@custos/contract';

/** Children loaded per node; a node with more shows how many are not listed. */
export const TREE_PAGE_SIZE = 100;

export interface TreeEntry {
  key: string;
  title: string;
  isLeaf: boolean;
  node?: AdminTeamTreeNode;
  children?: TreeEntry[];
}

/** How a member reads in the tree: e-mail, level, own custody, team performance, valid or not. */
export function treeTitle(node: AdminTeamTreeNode): string {
  return `${node.email} · V${node.level} · own ${node.ownCustody} · team ${node.teamPerformance} · ${node.isValid ? 'valid' : 'not valid'}`;
}

export function toTreeEntry(node: AdminTeamTreeNode): TreeEntry {
  return { key: node.accountId, title: treeTitle(node), isLeaf: node.directCount === 0, node };
}

/** A page of children as tree entries, with a closing note when more exist than were loaded. */
export function childEntries(parentKey: string, items: AdminTeamTreeNode[], total: number): TreeEntry[] {
  const entries = items.map(toTreeEntry);
  if (total > items.length) {
    entries.push({ key: `${parentKey}:more`, title: `… and ${total - items.length} more direct members`, isLeaf: true });
  }
  return entries;
}

/** The tree with `children` set under the entry `key` (found at any depth). */
export function withChildren(entries: TreeEntry[], key: string, children: TreeEntry[]): TreeEntry[] {
  return entries.map((entry) =>
    entry.key === key
      ? { ...entry, children }
      : entry.children
        ? { ...entry, children: withChildren(entry.children, key, children) }
        : entry,
  );
}
