import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, InputNumber, Space, Typography } from 'antd';
import {
  contractManualQuoteSettingsSchema,
  operatorMay,
  type ContractManualQuoteSettings,
  type Operator,
} from '@custos/contract';
import { errorText } from '../../../lib/query/query-client';
import { getManualQuoteSettings, updateManualQuoteSettings } from '../api/contracts';
import { contractKeys } from '../api/keys';
import { contractIssueText } from '../contracts';

/**
 * The manual quote band (decision 050): how far one operator's quote may stray from the last
 * independent price, how old that price may be, and how long a proposal waits. Checked with the
 * contract's schema; the server checks again and audits the save.
 */
export function ManualQuoteSettingsCard({ operator }: { operator: Operator }) {
  const mayEdit = operatorMay(operator.role, 'contracts.manage');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: contractKeys.manualQuoteSettings,
    queryFn: getManualQuoteSettings,
    refetchOnWindowFocus: false,
  });
  const [form] = Form.useForm<ContractManualQuoteSettings>();
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  const save = (values: ContractManualQuoteSettings) => {
    const parsed = contractManualQuoteSettingsSchema.safeParse(values);
    if (!parsed.success) {
      setProblem(contractIssueText(parsed.error.issues[0]!));
      return;
    }
    setProblem(null);
    setSaving(true);
    updateManualQuoteSettings(parsed.data)
      .then(
        () => void message.success('Manual quote band saved'),
        (failure: unknown) => setProblem(errorText(failure)),
      )
      .finally(() => {
        setSaving(false);
        void queryClient.invalidateQueries({ queryKey: contractKeys.manualQuoteSettings });
      });
  };

  return (
    <Card title="Manual quote band" size="small" data-testid="manual-quote-settings">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">
          One operator&apos;s quote applies at once only within this many basis points of the last feed, replay or approved price,
          and only while that price is recent; any other quote waits for a second operator.
        </Typography.Text>
        {settings.isError && <Alert type="error" showIcon title={errorText(settings.error)} />}
        <Form<ContractManualQuoteSettings> form={form} layout="inline" onFinish={save} disabled={!mayEdit}>
          <Form.Item label="Band" name="bandBps">
            <InputNumber min={1} max={1000} suffix="bps" data-testid="manual-quote-band" />
          </Form.Item>
          <Form.Item label="Reference at most" name="referenceMaxAgeS">
            <InputNumber min={10} max={3600} suffix="s old" data-testid="manual-quote-reference-age" />
          </Form.Item>
          <Form.Item label="Proposals expire after" name="proposalTtlS">
            <InputNumber min={30} max={3600} suffix="s" data-testid="manual-quote-ttl" />
          </Form.Item>
          {mayEdit && (
            <Button type="primary" htmlType="submit" loading={saving} data-testid="manual-quote-settings-save">
              Save
            </Button>
          )}
        </Form>
        {problem && <Alert type="error" showIcon title={problem} data-testid="manual-quote-settings-problem" />}
      </Space>
    </Card>
  );
}
