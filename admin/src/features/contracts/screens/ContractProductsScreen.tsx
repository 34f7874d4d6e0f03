import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import { manualContractQuoteRequest, operatorMay, type AdminContractProduct, type Operator } from '@custos/contract';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { listContractProducts, setContractQuote, updateContractProduct } from '../api/contracts';
import { contractKeys } from '../api/keys';
import { ManualQuoteSettingsCard } from './ManualQuoteSettingsCard';
import { PROPOSAL_WHY_TEXT, QuoteProposals, referenceText } from './QuoteProposals';
import {
  PRODUCT_LABELS,
  WEEKDAYS,
  changesOf,
  contractIssueText,
  hoursText,
  productForm,
  toProductSettings,
  type ProductSettingsForm,
} from '../contracts';

/** Quotes move; the table is read again this often. */
const PRODUCTS_REFETCH_MS = 5_000;

function text(testId: string, width = 160, suffix?: string) {
  return <Input inputMode="decimal" autoComplete="off" style={{ width }} suffix={suffix} data-testid={testId} />;
}

/** A product's contract settings in a drawer, checked with the contract's schema and confirmed change by change. */
function SettingsDrawer({ product, mayEdit, onClose }: { product: AdminContractProduct; mayEdit: boolean; onClose: () => void }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProductSettingsForm>();
  const [problem, setProblem] = useState<{ text: string; field: string } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = (values: ProductSettingsForm) => {
    setRefusal(null);
    const result = toProductSettings(values);
    if ('problem' in result) {
      setProblem({ text: result.problem, field: result.field });
      return;
    }
    setProblem(null);
    const changes = changesOf(PRODUCT_LABELS, product.settings, result.value);
    if (changes.length === 0) {
      void message.info('Nothing changed');
      return;
    }
    modal.confirm({
      title: product.settings ? `Change ${product.symbol}'s contract settings?` : `Set ${product.symbol} up for contracts?`,
      content: (
        <Space orientation="vertical" data-testid="contract-product-changes">
          {changes.map((change) => (
            <Typography.Text key={change.label}>
              {change.label}: {change.before} → <Typography.Text strong>{change.after}</Typography.Text>
            </Typography.Text>
          ))}
          <Typography.Text type="secondary">
            New orders follow at once; open orders keep their lots, leverage and margin.
          </Typography.Text>
        </Space>
      ),
      okText: 'Save',
      onOk: () => {
        setSaving(true);
        return updateContractProduct(product.id, result.value)
          .then(
            () => {
              void queryClient.invalidateQueries({ queryKey: contractKeys.all });
              void message.success(`${product.symbol} contract settings saved`);
              onClose();
            },
            (reason: unknown) => setRefusal(errorText(reason)),
          )
          .finally(() => setSaving(false));
      },
    });
  };

  return (
    <Drawer open title={`${product.symbol} · contract settings`} size="large" onClose={onClose} destroyOnHidden>
      <Form<ProductSettingsForm>
        form={form}
        layout="vertical"
        disabled={!mayEdit}
        initialValues={productForm(product.settings)}
        onFinish={save}
        onValuesChange={() => {
          setProblem(null);
          setRefusal(null);
        }}
        data-testid="contract-product-form"
      >
        <Form.Item label={PRODUCT_LABELS.tradingEnabled} name="tradingEnabled" valuePropName="checked">
          <Switch data-testid="contract-product-trading" />
        </Form.Item>
        <Space size="large" wrap align="start">
          <Form.Item label={PRODUCT_LABELS.digits} name="digits" extra="5 for EURUSD, 3 for USDJPY, 2 for gold">
            <InputNumber min={0} max={8} precision={0} style={{ width: 120 }} data-testid="contract-product-digits" />
          </Form.Item>
          <Form.Item label={PRODUCT_LABELS.contractSize} name="contractSize" extra="100000 for a currency pair, 100 oz for gold">
            {text('contract-product-size')}
          </Form.Item>
          <Form.Item label={PRODUCT_LABELS.leverages} name="leverages" extra="e.g. 10, 50, 100, 200">
            <Input autoComplete="off" style={{ width: 220 }} data-testid="contract-product-leverages" />
          </Form.Item>
        </Space>
        <Space size="large" wrap align="start">
          <Form.Item label={PRODUCT_LABELS.minLots} name="minLots">
            {text('contract-product-min-lots', 120)}
          </Form.Item>
          <Form.Item label={PRODUCT_LABELS.lotStep} name="lotStep">
            {text('contract-product-lot-step', 120)}
          </Form.Item>
          <Form.Item label={PRODUCT_LABELS.maxLots} name="maxLots">
            {text('contract-product-max-lots', 120)}
          </Form.Item>
          <Form.Item
            label={PRODUCT_LABELS.spreadMarkupPoints}
            name="spreadMarkupPoints"
            extra="Half below the bid, half above the ask."
          >
            <InputNumber min={0} max={100000} precision={0} style={{ width: 140 }} data-testid="contract-product-markup" />
          </Form.Item>
        </Space>
        <Typography.Title level={5}>{PRODUCT_LABELS.sessions}</Typography.Title>
        <Typography.Paragraph type="secondary">
          Each day&apos;s hours in UTC as 00:00-24:00; several sessions separated by commas; empty for closed.
        </Typography.Paragraph>
        <Space size="middle" wrap align="start">
          {WEEKDAYS.map(({ day, name }) => (
            <Form.Item key={day} label={name} name={['hours', String(day)]}>
              <Input
                autoComplete="off"
                style={{ width: 150 }}
                placeholder="closed"
                data-testid={`contract-product-hours-${day}`}
              />
            </Form.Item>
          ))}
        </Space>
        <Space size="large" wrap align="start">
          <Form.Item label={PRODUCT_LABELS.swapEnabled} name="swapEnabled" valuePropName="checked">
            <Switch data-testid="contract-product-swap" />
          </Form.Item>
          <Form.Item label={PRODUCT_LABELS.swapLongPct} name="swapLongPct" extra="Negative is charged to the member.">
            {text('contract-product-swap-long', 140, '%')}
          </Form.Item>
          <Form.Item label={PRODUCT_LABELS.swapShortPct} name="swapShortPct">
            {text('contract-product-swap-short', 140, '%')}
          </Form.Item>
        </Space>
        {problem && (
          <Alert type="error" showIcon title={problem.text} style={{ marginBottom: 16 }} data-testid="contract-product-problem" />
        )}
        {refusal && <Alert type="error" showIcon title={`Not saved: ${refusal}`} style={{ marginBottom: 16 }} />}
        {mayEdit && (
          <Button type="primary" htmlType="submit" loading={saving} data-testid="contract-product-save">
            Save
          </Button>
        )}
      </Form>
    </Drawer>
  );
}

/** An operator's bid and ask for a manually priced product: a tick like any other (triggers fire on it). */
function QuoteModal({ product, onClose }: { product: AdminContractProduct; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [bid, setBid] = useState(product.bid ?? '');
  const [ask, setAsk] = useState(product.ask ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = () => {
    const parsed = manualContractQuoteRequest.safeParse({ bid: bid.trim(), ask: ask.trim() });
    if (!parsed.success) {
      setProblem(contractIssueText(parsed.error.issues[0]!));
      return;
    }
    setBusy(true);
    setContractQuote(product.id, parsed.data)
      .then(
        (answer) => {
          if (answer.outcome === 'applied') {
            void message.success(`${product.symbol} quoted ${parsed.data.bid} / ${parsed.data.ask}: applied`);
          } else if (answer.proposal) {
            void message.warning(
              `${product.symbol} ${parsed.data.bid} / ${parsed.data.ask} waits for a second operator: ${PROPOSAL_WHY_TEXT[answer.proposal.why]} (reference ${referenceText(answer.proposal)})`,
            );
          }
          onClose();
        },
        (failure: unknown) => setProblem(errorText(failure)),
      )
      .finally(() => {
        setBusy(false);
        void queryClient.invalidateQueries({ queryKey: contractKeys.all });
      });
  };
  return (
    <Modal
      open
      title={`Quote ${product.symbol}`}
      okText="Send quote"
      confirmLoading={busy}
      onOk={send}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary">
          The raw bid and ask; the product&apos;s mark-up is added. Within the band of a recent independent price (and while no
          feed is live) it applies at once; otherwise it waits for a second operator. Take-profit and stop-loss reached by a
          manual quote fill at their own price.
        </Typography.Paragraph>
        <Space>
          <Input
            addonBefore="Bid"
            value={bid}
            onChange={(event) => setBid(event.target.value)}
            data-testid="contract-quote-bid"
          />
          <Input
            addonBefore="Ask"
            value={ask}
            onChange={(event) => setAsk(event.target.value)}
            data-testid="contract-quote-ask"
          />
        </Space>
        {problem && <Alert type="error" showIcon title={problem} data-testid="contract-quote-problem" />}
      </Space>
    </Modal>
  );
}

/**
 * The market products and their contract settings (issue 15): contract size, digits, leverages, lots,
 * spread mark-up, hours and swap; the live quote with its source, staleness and market state; open
 * orders. `contracts.manage` sets a product up, changes it and quotes manual products.
 */
export function ContractProductsScreen({ operator }: { operator: Operator }) {
  const mayEdit = operatorMay(operator.role, 'contracts.manage');
  const products = useQuery({
    queryKey: contractKeys.products,
    queryFn: listContractProducts,
    refetchInterval: PRODUCTS_REFETCH_MS,
  });
  const [editing, setEditing] = useState<AdminContractProduct | null>(null);
  const [quoting, setQuoting] = useState<AdminContractProduct | null>(null);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Contract products</Typography.Title>
      <Typography.Paragraph type="secondary">
        Products are the market pairs of Quotes; a pair carries contracts once its settings are saved here.
      </Typography.Paragraph>
      {products.isError && <Alert type="error" showIcon title={errorText(products.error)} />}
      <Table<AdminContractProduct>
        rowKey="id"
        size="small"
        pagination={false}
        loading={!products.data && products.isFetching}
        dataSource={products.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        onRow={(product) => ({ 'data-testid': 'contract-product-row', 'data-symbol': product.symbol }) as object}
        columns={[
          {
            title: 'Product',
            render: (_: unknown, product) => (
              <Space orientation="vertical" size={0}>
                <span>{product.symbol}</span>
                <Typography.Text type="secondary">{product.displayName}</Typography.Text>
              </Space>
            ),
          },
          {
            title: 'Contracts',
            render: (_: unknown, product) =>
              product.settings === null ? (
                <Tag>not set up</Tag>
              ) : (
                <Space orientation="vertical" size={0}>
                  <span>
                    {product.settings.contractSize} per lot · {product.settings.digits} digits ·{' '}
                    {product.settings.leverages.join('/')}×
                  </span>
                  <Typography.Text type="secondary">
                    lots {product.settings.minLots}–{product.settings.maxLots} by {product.settings.lotStep} · mark-up{' '}
                    {product.settings.spreadMarkupPoints} pt
                    {product.settings.swapEnabled
                      ? ` · swap ${product.settings.swapLongPct}/${product.settings.swapShortPct} %`
                      : ''}
                  </Typography.Text>
                  <Typography.Text type="secondary">{hoursText(product.settings.sessions)} (UTC)</Typography.Text>
                </Space>
              ),
          },
          {
            title: 'Bid / ask',
            align: 'right',
            render: (_: unknown, product) => (
              <Space orientation="vertical" size={0}>
                <span data-testid="contract-product-quote">
                  {product.bid ?? '—'} / {product.ask ?? '—'}
                </span>
                {product.quotedAt && (
                  <Typography.Text type="secondary">
                    {product.tickSource ?? ''} · {formatTime(product.quotedAt)}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: 'State',
            render: (_: unknown, product) => (
              <Space size={4} wrap>
                {product.settings && !product.settings.tradingEnabled && <Tag>opening off</Tag>}
                <Tag color={product.marketOpen ? 'green' : 'default'}>{product.marketOpen ? 'market open' : 'market closed'}</Tag>
                {product.stale && <Tag color="orange">stale</Tag>}
                {!product.enabled && <Tag>hidden on Home</Tag>}
              </Space>
            ),
          },
          { title: 'Open orders', dataIndex: 'openOrders', align: 'right' },
          {
            title: '',
            key: 'actions',
            render: (_: unknown, product) => (
              <Space>
                <Button size="small" onClick={() => setEditing(product)} data-testid="contract-product-edit">
                  {product.settings ? 'Settings' : 'Set up'}
                </Button>
                {mayEdit && product.settings && product.quoteSource === 'manual' && (
                  <Button size="small" onClick={() => setQuoting(product)} data-testid="contract-product-quote-button">
                    Quote
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <QuoteProposals operator={operator} />
      <ManualQuoteSettingsCard operator={operator} />
      {editing && <SettingsDrawer product={editing} mayEdit={mayEdit} onClose={() => setEditing(null)} />}
      {quoting && <QuoteModal product={quoting} onClose={() => setQuoting(null)} />}
    </Space>
  );
}
