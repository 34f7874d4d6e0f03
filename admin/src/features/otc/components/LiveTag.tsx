import { Tag, Tooltip } from 'antd';

/** Whether the screen hears changes as they happen, or asks again every few seconds. */
export function LiveTag({ connected }: { connected: boolean }) {
  return (
    <Tooltip title={connected ? 'Changes show as they happen' : 'Refreshing every 15 s until the live channel opens'}>
      <Tag color={connected ? 'green' : 'default'} data-testid="otc-live">
        {connected ? 'Live' : 'Connecting…'}
      </Tag>
    </Tooltip>
  );
}
