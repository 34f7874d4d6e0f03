/** A level's badge: the same shape for every level, its colour rising with it. */
export function LevelBadge({ level, name, testId }: { level: number; name: string; testId?: string }) {
  return (
    <span className={`team-badge team-badge-${Math.min(level, 6)}`} data-testid={testId} data-level={level}>
      {name}
    </span>
  );
}
