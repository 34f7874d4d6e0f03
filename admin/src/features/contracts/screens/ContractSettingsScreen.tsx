import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { operatorMay, type ContractSettings, type Operator } from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { getContractSettings, updateContractSettings } from '../api/contracts';
import { contractKeys } from '../api/keys';
import { SETTINGS_LABELS, changesOf, toContractSettings } from '../contracts';

/**
 * The platform's contract settings (decision 034/035): trading open, the stop-out and margin-call
 * levels, when a quote is stale, open orders per member. Checked with the contract's schema before a
 * confirmation that lists each change; the server checks again and audits the save.
 */
export function ContractSettingsScreen({ operator }: { operator: Operator }) {
  const mayEdit = operatorMay(operator.role, 'contracts.manage');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const settingsQuery = useQuery({ queryKey: contractKeys.settings, queryFn: getContractSettings, refetchOnWindowFocus: false });
  const saved = settingsQuery.data ?? null;
  const [form] = Form.useForm<ContractSettings>();
  const [problem, setProblem] = useState<{ text: string; field: string } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (saved) form.setFieldsValue(saved);
  }, [saved, form]);

  const save = (values: ContractSettings) => {
    setRefusal(null);
    const result = toContractSettings(values);
    if ('problem' in result) {
      setProblem({ text: result.problem, field: result.field });
      form.setFields([{ name: result.field as keyof ContractSettings, errors: [result.problem] }]);
      return;
    }
    setProblem(null);
    if (!saved) return;
    const changes = changesOf(SETTINGS_LABELS, saved, result.value);
    if (changes.length === 0) {
      void message.info('Nothing changed');
      return;
    }
    modal.confirm({
      title: 'Save the contract settings?',
      content: (
        <Space orientation="vertical" data-testid="contract-settings-changes">
          {changes.map((change) => (
            <Typography.Text key={change.label}>
              {change.label}: {change.before} → <Typography.Text strong>{change.after}</Typography.Text>
            </Typography.Text>
          ))}
          <Typography.Text type="secondary">The price watcher applies a new stop-out level at the next quote.</Typography.Text>
        </Space>
      ),
      okText: 'Save',
      onOk: () => {
        setSaving(true);
        return updateContractSettings(result.value)
          .then(
            (stored) => {
              queryClient.setQueryData(contractKeys.settings, stored);
              form.setFieldsValue(stored);
              void queryClient.invalidateQueries({ queryKey: contractKeys.all });
              void message.success('Contract settings saved');
            },
            (reason: unknown) => setRefusal(errorText(reason)),
          )
          .finally(() => setSaving(false));
      },
    });
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 960 }}>
      <Typography.Title level={3}>Contract settings</Typography.Title>
      {!mayEdit && <Alert type="info" showIcon title="Read only: your role may not change the contract settings." />}
      {settingsQuery.isError && <Alert type="error" showIcon title={errorText(settingsQuery.error)} />}
      <Card loading={saved === null && !settingsQuery.isError} data-testid="contract-settings">
        <Form<ContractSettings>
          form={form}
          layout="vertical"
          disabled={!mayEdit}
          onFinish={save}
          onValuesChange={() => {
            if (problem) form.setFields([{ name: problem.field as keyof ContractSettings, errors: [] }]);
            setProblem(null);
            setRefusal(null);
          }}
        >
          <Form.Item
            label={SETTINGS_LABELS.enabled}
            name="enabled"
            valuePropName="checked"
            extra="Off: no new orders; open orders can still be closed and their take-profit, stop-loss and stop-out still fire."
          >
            <Switch data-testid="contract-enabled" />
          </Form.Item>
          <Space size="large" wrap align="start">
            <Form.Item
              label={SETTINGS_LABELS.stopOutLevelPct}
              name="stopOutLevelPct"
              extra="Below it a member's orders close, the biggest loser first, until the level is back above it."
            >
              <Input inputMode="decimal" autoComplete="off" suffix="%" style={{ width: 160 }} data-testid="contract-stop-out" />
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.marginCallLevelPct}
              name="marginCallLevelPct"
              extra="Below it a member is listed at risk in the book and warned in the app."
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                suffix="%"
                style={{ width: 160 }}
                data-testid="contract-margin-call"
              />
            </Form.Item>
            <Form.Item
              label={SETTINGS_LABELS.priceStaleAfterS}
              name="priceStaleAfterS"
              extra="Opening and closing wait for a fresh quote."
            >
              <InputNumber min={5} max={3600} precision={0} style={{ width: 160 }} data-testid="contract-stale-after" />
            </Form.Item>
            <Form.Item label={SETTINGS_LABELS.maxOpenOrders} name="maxOpenOrders">
              <InputNumber min={1} max={1000} precision={0} style={{ width: 160 }} data-testid="contract-max-open" />
            </Form.Item>
          </Space>
          {problem && (
            <Alert
              type="error"
              showIcon
              title={problem.text}
              style={{ marginBottom: 16 }}
              data-testid="contract-settings-problem"
            />
          )}
          {refusal && (
            <Alert
              type="error"
              showIcon
              title={`Not saved: ${refusal}`}
              style={{ marginBottom: 16 }}
              data-testid="contract-settings-refused"
            />
          )}
          {mayEdit && (
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="contract-settings-save">
                Save
              </Button>
              <Button htmlType="button" onClick={() => saved && form.setFieldsValue(saved)}>
                Discard changes
              </Button>
            </Space>
          )}
        </Form>
      </Card>
    </Space>
  );
}
