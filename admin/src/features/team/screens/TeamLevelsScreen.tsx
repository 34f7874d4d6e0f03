import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Alert, Button, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { operatorMay, type Operator, type TeamLevelInput, type TeamLevelPreview, type TeamLevelVersion } from '@custos/contract';
import { listLevelVersions, previewLevels, saveLevels } from '../api/team-api';
import { teamKeys } from '../api/keys';
import { errorText } from '../../../lib/query/query-client';

type TextField =
  | 'name'
  | 'minOwnCustody'
  | 'minTeamPerformance'
  | 'directRatePct'
  | 'indirectRatePct'
  | 'communityRatePct'
  | 'managementRatePct'
  | 'dividendRatePct'
  | 'promotionBonus';
type NumberField = 'minValidDirect' | 'minLegs' | 'indirectGenerations';

/** A new top level, starting from the one below it so its thresholds only need raising. */
function nextLevel(rows: TeamLevelInput[]): TeamLevelInput {
  const top = rows.at(-1)!;
  return { ...top, level: top.level + 1, name: `V${top.level + 1}`, legsLevel: top.minLegs > 0 ? top.legsLevel : null };
}

/**
 * Team levels: the table in force and any saved for tomorrow, and an editor for the next one. A saved
 * table applies from the next platform day; the preview lists who would change level first.
 */
export function TeamLevelsScreen({ operator }: { operator: Operator }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // The editor below starts from the newest table: a window focus must not overwrite what the operator is typing.
  const versionsQuery = useQuery({ queryKey: teamKeys.levels, queryFn: listLevelVersions, refetchOnWindowFocus: false });
  const saved = versionsQuery.data ?? null;
  const versions: TeamLevelVersion[] = saved ?? [];
  const [rows, setRows] = useState<TeamLevelInput[]>([]);
  const [preview, setPreview] = useState<TeamLevelPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const mayEdit = operatorMay(operator.role, 'team.manage');

  // The editor starts again from the newest saved table whenever a fresh copy arrives (first load, after a save).
  useEffect(() => {
    if (!saved) return;
    setRows(saved[0]?.levels ?? []);
    setPreview(null);
  }, [saved]);

  const change = (index: number, patch: Partial<TeamLevelInput>) => {
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...patch } : row)));
    setPreview(null);
  };
  const text = (field: TextField) => ({
    title: field,
    dataIndex: field,
    render: (value: string, _row: TeamLevelInput, index: number) => (
      <Input
        size="small"
        value={value}
        disabled={!mayEdit}
        onChange={(event) => change(index, { [field]: event.target.value })}
        data-testid={`level-${index}-${field}`}
        style={{ width: 96 }}
      />
    ),
  });
  const number = (field: NumberField) => ({
    title: field,
    dataIndex: field,
    render: (value: number, _row: TeamLevelInput, index: number) => (
      <InputNumber
        size="small"
        min={0}
        precision={0}
        value={value}
        disabled={!mayEdit}
        onChange={(next) => change(index, { [field]: next ?? 0 })}
        data-testid={`level-${index}-${field}`}
        style={{ width: 72 }}
      />
    ),
  });

  const runPreview = () => {
    setBusy(true);
    previewLevels(rows)
      .then(setPreview, (reason: unknown) => void message.error(errorText(reason)))
      .finally(() => setBusy(false));
  };
  const save = () => {
    modal.confirm({
      title: 'Save this level table?',
      content: 'It applies from the next platform day; today and every past day keep their table.',
      okText: 'Save',
      onOk: () =>
        saveLevels(rows).then(
          (stored) => {
            void message.success(`Saved: in force from ${stored.effectiveFrom}`);
            setPreview(null);
            void queryClient.invalidateQueries({ queryKey: teamKeys.all });
          },
          (reason: unknown) => void message.error(errorText(reason)),
        ),
    });
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Team levels</Typography.Title>
      {versionsQuery.isError && <Alert type="error" showIcon title={errorText(versionsQuery.error)} />}
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        title={() => 'Saved tables'}
        loading={saved === null && !versionsQuery.isError}
        dataSource={versions}
        columns={[
          { title: 'In force from', dataIndex: 'effectiveFrom' },
          {
            title: 'Levels',
            render: (_value: unknown, version: TeamLevelVersion) => version.levels.map((level) => level.name).join(', '),
          },
          { title: 'Saved', dataIndex: 'createdAt', render: (value: string) => new Date(value).toLocaleString() },
        ]}
      />
      <Table
        size="small"
        rowKey="level"
        pagination={false}
        scroll={{ x: true }}
        title={() => 'Next table (thresholds in USDT, rates in %)'}
        dataSource={rows}
        data-testid="team-level-editor"
        columns={[
          { title: 'level', dataIndex: 'level', render: (value: number) => <Tag>{value}</Tag> },
          text('name'),
          text('minOwnCustody'),
          number('minValidDirect'),
          text('minTeamPerformance'),
          number('minLegs'),
          {
            title: 'legsLevel',
            dataIndex: 'legsLevel',
            render: (value: number | null, _row: TeamLevelInput, index: number) => (
              <InputNumber
                size="small"
                min={0}
                precision={0}
                value={value}
                disabled={!mayEdit}
                onChange={(next) => change(index, { legsLevel: next })}
                style={{ width: 64 }}
              />
            ),
          },
          text('directRatePct'),
          text('indirectRatePct'),
          number('indirectGenerations'),
          text('communityRatePct'),
          text('managementRatePct'),
          text('dividendRatePct'),
          text('promotionBonus'),
        ]}
      />
      {mayEdit && (
        <Space>
          <Button onClick={() => setRows((current) => [...current, nextLevel(current)])} disabled={rows.length === 0}>
            Add level
          </Button>
          <Button onClick={() => setRows((current) => current.slice(0, -1))} disabled={rows.length <= 1}>
            Remove top level
          </Button>
          <Button onClick={runPreview} loading={busy} data-testid="team-levels-preview">
            Preview changes
          </Button>
          <Button type="primary" onClick={save} data-testid="team-levels-save">
            Save (from the next platform day)
          </Button>
        </Space>
      )}
      {preview && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert
            type={preview.changes > 0 ? 'warning' : 'info'}
            message={`From ${preview.effectiveFrom}, ${preview.changes} member account(s) would change level (today's figures).`}
            data-testid="team-levels-preview-result"
          />
          <Table
            size="small"
            rowKey="accountId"
            pagination={false}
            dataSource={preview.sample}
            columns={[
              { title: 'E-mail', dataIndex: 'email' },
              { title: 'Nickname', dataIndex: 'nickname' },
              { title: 'Now', dataIndex: 'from', render: (value: number) => `V${value}` },
              { title: 'Would be', dataIndex: 'to', render: (value: number) => `V${value}` },
            ]}
          />
        </Space>
      )}
    </Space>
  );
}
