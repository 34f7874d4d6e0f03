import { describe, expect, it } from 'vitest';
import type { AdminTeamTreeNode } from '@custos/contract';
import { childEntries, toTreeEntry, withChildren } from './tree';

const node = (email: string, directCount: number): AdminTeamTreeNode => ({
  accountId: `id-${email}`,
  email,
  nickname: email,
  generation: 1,
  level: 1,
  ownCustody: '600.0000',
  teamPerformance: '1400.0000',
  directCount,
  teamCount: directCount,
  validTeamCount: 0,
  joinedAt: '2026-11-20T00:00:00.000Z',
  isValid: true,
});

describe('downline tree', () => {
  it('titles a node with its level and figures, and a member with nobody below as a leaf', () => {
    expect(toTreeEntry(node('b@example.com', 0))).toMatchObject({
      key: 'id-b@example.com',
      title: 'b@example.com · V1 · own 600.0000 · team 1400.0000 · valid',
      isLeaf: true,
    });
    expect(toTreeEntry(node('c@example.com', 2)).isLeaf).toBe(false);
  });

  it('notes children beyond the page and sets children at any depth', () => {
    const children = childEntries('root', [node('b@example.com', 1)], 3);
    expect(children.map((entry) => entry.title).at(-1)).toBe('… and 2 more direct members');
    const tree = withChildren([{ key: 'root', title: 'root', isLeaf: false }], 'root', children);
    const deeper = withChildren(tree, 'id-b@example.com', childEntries('id-b@example.com', [node('d@example.com', 0)], 1));
    expect(deeper[0]!.children![0]!.children!.map((entry) => entry.key)).toEqual(['id-d@example.com']);
  });
});
