import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Popconfirm, Segmented, Space, Table, Tag, Typography } from 'antd';
import {
  RELEASE_NOTES_MAX_LENGTH,
  RELEASE_PACKAGE_MAX_BYTES,
  type AdminRelease,
  type ReleaseKind,
  type ReleaseStatus,
} from '@custos/contract';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { createRelease, listReleases, publishRelease, rollbackRelease, uploadPackage } from '../api/releases';
import { releaseKeys } from '../api/keys';

const KIND_LABELS: Record<ReleaseKind, string> = { hot: 'Hot bundle (.zip)', full: 'Full package (.apk)' };
const STATUS_COLOURS: Record<ReleaseStatus, string> = { draft: 'default', published: 'green', rolled_back: 'red' };
const STATUS_LABELS: Record<ReleaseStatus, string> = { draft: 'Draft', published: 'Published', rolled_back: 'Rolled back' };

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

interface UploadForm {
  versionCode: number;
  versionName: string;
  notes?: string;
}

/** Publish (or change the share of) one release: the percentage of members it reaches. */
function PublishControl({ release, onPublish }: { release: AdminRelease; onPublish: (percent: number) => Promise<void> }) {
  const [percent, setPercent] = useState<number>(release.status === 'published' ? release.rolloutPercent : 100);
  const [busy, setBusy] = useState(false);
  return (
    <Space.Compact>
      <InputNumber<number>
        min={1}
        max={100}
        value={percent}
        onChange={(value) => setPercent(value ?? 100)}
        addonAfter="%"
        style={{ width: 110 }}
        data-testid="release-percent"
      />
      <Button
        loading={busy}
        onClick={() => {
          setBusy(true);
          void onPublish(percent).finally(() => setBusy(false));
        }}
        data-testid="release-publish"
      >
        {release.status === 'draft' ? 'Publish' : 'Set share'}
      </Button>
    </Space.Compact>
  );
}

/**
 * App releases (decision 037): upload a hot bundle or an APK, make a draft with a version code
 * higher than every earlier one, publish it to a share of members, grow the share, roll it back.
 */
export function ReleasesScreen() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<UploadForm>();
  const [kind, setKind] = useState<ReleaseKind>('hot');
  const [file, setFile] = useState<File | null>(null);
  const [fileInputKey, setFileInputKey] = useState(0);

  const releases = useQuery({ queryKey: releaseKeys.list(), queryFn: listReleases });
  const refresh = () => queryClient.invalidateQueries({ queryKey: releaseKeys.all });
  const nextCode = (releases.data?.highestVersionCode ?? 0) + 1;

  const upload = useMutation({
    mutationFn: async (values: UploadForm) => {
      if (!file) throw new Error('Choose the package file');
      const uploaded = await uploadPackage(kind, file);
      return createRelease({
        packageId: uploaded.id,
        versionCode: values.versionCode,
        versionName: values.versionName,
        notes: values.notes ?? '',
      });
    },
    onSuccess: async () => {
      void message.success('Package uploaded: the release is a draft until published');
      form.resetFields();
      setFile(null);
      setFileInputKey((key) => key + 1);
      await refresh();
    },
    onError: (error) => void message.error(errorText(error)),
  });

  const act = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      void message.success(done);
    } catch (error) {
      void message.error(errorText(error));
    } finally {
      await refresh();
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>App releases</Typography.Title>
      {releases.isError && <Alert type="error" showIcon title={errorText(releases.error)} />}
      <Card title="Upload a package">
        <Form<UploadForm>
          form={form}
          layout="vertical"
          onFinish={(values) => upload.mutate(values)}
          initialValues={{ notes: '' }}
          style={{ maxWidth: 560 }}
        >
          <Form.Item label="Kind">
            <Segmented<ReleaseKind>
              options={[
                { label: KIND_LABELS.hot, value: 'hot' },
                { label: KIND_LABELS.full, value: 'full' },
              ]}
              value={kind}
              onChange={setKind}
            />
          </Form.Item>
          <Form.Item
            label={`Package file (at most ${megabytes(RELEASE_PACKAGE_MAX_BYTES[kind])})`}
            required
            extra="Its SHA-256 is computed here and checked by the server."
          >
            <input
              key={fileInputKey}
              type="file"
              accept={kind === 'hot' ? '.zip,application/zip' : '.apk,application/vnd.android.package-archive'}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              data-testid="release-file"
            />
          </Form.Item>
          <Form.Item
            name="versionCode"
            label={`Version code (higher than ${releases.data?.highestVersionCode ?? '…'})`}
            rules={[{ required: true, message: 'Enter the version code' }]}
          >
            <InputNumber<number>
              min={1}
              precision={0}
              placeholder={String(nextCode)}
              style={{ width: 200 }}
              data-testid="release-code"
            />
          </Form.Item>
          <Form.Item
            name="versionName"
            label="Version name"
            rules={[
              { required: true, message: 'Enter the version name' },
              { pattern: /^\d+(?:\.\d+){1,3}$/, message: 'Like 1.0.20' },
            ]}
          >
            <Input placeholder="1.0.20" style={{ width: 200 }} data-testid="release-name" />
          </Form.Item>
          <Form.Item name="notes" label="Release notes">
            <Input.TextArea rows={3} maxLength={RELEASE_NOTES_MAX_LENGTH} showCount data-testid="release-notes" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={upload.isPending} data-testid="release-upload">
            Upload and create draft
          </Button>
        </Form>
      </Card>
      <Table<AdminRelease>
        rowKey="id"
        loading={releases.isFetching}
        dataSource={releases.data?.items ?? []}
        pagination={false}
        onRow={(record) => ({ 'data-testid': `release-row-${record.versionCode}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: 'Version',
            key: 'version',
            render: (_, release) => (
              <span>
                {release.versionName} ({release.versionCode})
              </span>
            ),
          },
          { title: 'Kind', dataIndex: 'kind', render: (value: ReleaseKind) => KIND_LABELS[value] },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (value: ReleaseStatus, release) => (
              <Tag color={STATUS_COLOURS[value]} data-testid="release-status">
                {STATUS_LABELS[value]}
                {value === 'published' ? ` · ${release.rolloutPercent}%` : ''}
              </Tag>
            ),
          },
          {
            title: 'Package',
            key: 'package',
            render: (_, release) => (
              <Space direction="vertical" size={0}>
                <span>{megabytes(release.sizeBytes)}</span>
                <Typography.Text code copyable={{ text: release.sha256 }} title={release.sha256}>
                  {release.sha256.slice(0, 12)}…
                </Typography.Text>
                {release.kind === 'hot' && (
                  // Decisions 053, 057: apps apply only bundles signed with the release key.
                  <Tag
                    color={release.signed ? 'green' : 'red'}
                    data-testid="release-signature"
                    title={
                      release.signed
                        ? 'Signed with the release key'
                        : 'Not signed: every app refuses it, and it cannot be published'
                    }
                  >
                    {release.signed ? 'Signed' : 'Unsigned'}
                  </Tag>
                )}
              </Space>
            ),
          },
          { title: 'Notes', dataIndex: 'notes', ellipsis: true },
          {
            title: 'Created / published',
            key: 'dates',
            render: (_, release) => (
              <Space direction="vertical" size={0}>
                <span>{formatTime(release.createdAt)}</span>
                {release.publishedAt && <span>{formatTime(release.publishedAt)}</span>}
              </Space>
            ),
          },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, release) =>
              release.status === 'rolled_back' ? null : (
                <Space>
                  <PublishControl
                    release={release}
                    onPublish={(percent) => act(() => publishRelease(release.id, percent), `Published to ${percent}% of members`)}
                  />
                  {release.status === 'published' && (
                    <Popconfirm
                      title="Roll this release back?"
                      description="No member is offered it again; the previous release is answered instead."
                      okText="Roll back"
                      onConfirm={() => void act(() => rollbackRelease(release.id), 'Rolled back')}
                    >
                      <Button danger data-testid="release-rollback">
                        Roll back
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
          },
        ]}
      />
    </Space>
  );
}
