import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import {
  MARKET_SYMBOL_PATTERN,
  quoteFeedSettingsSchema,
  quotePriceSchema,
  type AdminMarketProduct,
  type AdminQuotes,
  type QuoteFeedSettings,
} from '@custos/contract';
import { formatTime } from '../../../lib/dates';
import { errorText } from '../../../lib/query/query-client';
import { fetchFeedNow, getQuotes, saveFeedSettings, saveProduct, setManualPrice } from '../api/quotes';
import { quotesKeys } from '../api/keys';

interface ProductForm {
  symbol: string;
  displayName: string;
  sortOrder: number;
  enabled: boolean;
  source: 'manual' | 'feed' | 'exchange';
}

const SOURCE_LABELS: Record<AdminMarketProduct['source'], string> = {
  manual: 'Manual',
  feed: 'Ticker feed',
  exchange: 'Exchange price',
};

function ChangeTag({ change }: { change: string | null }) {
  if (change === null) return <Typography.Text type="secondary">—</Typography.Text>;
  const color = change.startsWith('-') ? 'red' : /[1-9]/.test(change) ? 'green' : 'default';
  return <Tag color={color}>{change.startsWith('-') || color === 'default' ? change : `+${change}`} %</Tag>;
}

/** Add or change a pair: symbol, name, order, shown, source (RAB/USDT keeps the exchange's). */
function ProductDrawer({
  product,
  open,
  onClose,
  onSaved,
}: {
  product: AdminMarketProduct | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductForm>();
  const [saving, setSaving] = useState(false);
  const isExchange = product?.source === 'exchange';

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      product
        ? {
            symbol: product.symbol,
            displayName: product.displayName,
            sortOrder: product.sortOrder,
            enabled: product.enabled,
            source: product.source,
          }
        : { symbol: '', displayName: '', sortOrder: 10, enabled: true, source: 'manual' },
    );
  }, [open, product, form]);

  const save = (values: ProductForm) => {
    setSaving(true);
    saveProduct(product?.id ?? null, { ...values, symbol: values.symbol.trim().toUpperCase() })
      .then(
        () => {
          void message.success(product ? 'Pair saved' : 'Pair added');
          onSaved();
          onClose();
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setSaving(false));
  };

  return (
    <Drawer title={product ? `Edit ${product.symbol}` : 'Add a pair'} open={open} onClose={onClose} width={420} forceRender>
      <Form<ProductForm> form={form} layout="vertical" onFinish={save}>
        <Form.Item
          label="Pair"
          name="symbol"
          extra="BASE/QUOTE, e.g. BTC/USDT; the feed asks the ticker for BTCUSDT."
          rules={[
            {
              validator: async (_: unknown, value: string | undefined) => {
                if (!MARKET_SYMBOL_PATTERN.test((value ?? '').trim().toUpperCase())) {
                  throw new Error('Capital letters and digits, like BTC/USDT');
                }
              },
            },
          ]}
        >
          <Input autoComplete="off" disabled={isExchange} data-testid="quote-symbol" />
        </Form.Item>
        <Form.Item label="Display name" name="displayName" rules={[{ required: true, whitespace: true, max: 40 }]}>
          <Input autoComplete="off" data-testid="quote-display-name" />
        </Form.Item>
        <Form.Item label="Order" name="sortOrder" extra="Lowest first on Home." rules={[{ required: true }]}>
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
        <Form.Item label="Shown on Home" name="enabled" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label="Price source" name="source">
          <Select
            disabled={isExchange}
            data-testid="quote-source"
            options={
              isExchange
                ? [{ value: 'exchange', label: SOURCE_LABELS.exchange }]
                : [
                    { value: 'manual', label: SOURCE_LABELS.manual },
                    { value: 'feed', label: SOURCE_LABELS.feed },
                  ]
            }
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="quote-save">
          Save
        </Button>
      </Form>
    </Drawer>
  );
}

/** A manual pair's new price, in force from now (the 24 h change compares with the price a day ago). */
function PriceDrawer({
  product,
  onClose,
  onSaved,
}: {
  product: AdminMarketProduct | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ price: string }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (product) form.setFieldsValue({ price: product.price ?? '' });
  }, [product, form]);

  const save = ({ price }: { price: string }) => {
    if (!product) return;
    setSaving(true);
    setManualPrice(product.id, price.trim())
      .then(
        () => {
          void message.success(`${product.symbol} priced at ${price.trim()}`);
          onSaved();
          onClose();
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setSaving(false));
  };

  return (
    <Drawer
      title={product ? `Set the price of ${product.symbol}` : ''}
      open={product !== null}
      onClose={onClose}
      width={360}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={save}>
        <Form.Item
          label="Price"
          name="price"
          extra="Up to 8 decimal places. Members see it at once; it stays until you change it."
          rules={[
            {
              validator: async (_: unknown, value: string | undefined) => {
                if (!quotePriceSchema.safeParse(value ?? '').success)
                  throw new Error('A positive price with at most 8 decimal places');
              },
            },
          ]}
        >
          <Input inputMode="decimal" autoComplete="off" data-testid="quote-price-input" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="quote-price-save">
          Set price
        </Button>
      </Form>
    </Drawer>
  );
}

/** The ticker feed: off by default; address, time-out, staleness and interval; its last run. */
function FeedCard({ quotes, onChanged }: { quotes: AdminQuotes; onChanged: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<QuoteFeedSettings>();
  const [saving, setSaving] = useState(false);
  const [fetching, setFetching] = useState(false);
  useEffect(() => form.setFieldsValue(quotes.feed), [quotes.feed, form]);
  const status = quotes.feedStatus;

  const save = (values: QuoteFeedSettings) => {
    const parsed = quoteFeedSettingsSchema.safeParse(values);
    if (!parsed.success) {
      void message.error('Check the feed settings');
      return;
    }
    setSaving(true);
    saveFeedSettings(parsed.data)
      .then(
        () => {
          void message.success('Feed settings saved');
          onChanged();
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setSaving(false));
  };

  const fetchNow = () => {
    setFetching(true);
    fetchFeedNow()
      .then(
        (result) => {
          if (result.error) void message.warning(`Fetched ${result.updated} pair(s): ${result.error}`);
          else void message.success(`Fetched ${result.updated} pair(s)`);
          onChanged();
        },
        (reason: unknown) => void message.error(errorText(reason)),
      )
      .finally(() => setFetching(false));
  };

  return (
    <Card title="Ticker feed (Binance public API)" size="small">
      <Form<QuoteFeedSettings> form={form} layout="vertical" onFinish={save}>
        <Form.Item
          label="Feed on"
          name="enabled"
          valuePropName="checked"
          extra="Off by default: no request is made while it is off."
        >
          <Switch />
        </Form.Item>
        <Form.Item
          label="Base address"
          name="baseUrl"
          extra="The feed asks {address}/api/v3/ticker/24hr for every enabled feed pair."
          rules={[{ required: true }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Space size="large" wrap>
          <Form.Item label="Time-out (ms)" name="timeoutMs" rules={[{ required: true }]}>
            <InputNumber min={500} max={30000} precision={0} />
          </Form.Item>
          <Form.Item label="Stale after (s)" name="staleAfterS" rules={[{ required: true }]}>
            <InputNumber min={60} max={86400} precision={0} />
          </Form.Item>
          <Form.Item label="Fetch every (s)" name="intervalS" rules={[{ required: true }]}>
            <InputNumber min={60} max={3600} precision={0} />
          </Form.Item>
        </Space>
        <div>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              Save feed settings
            </Button>
            <Button htmlType="button" onClick={fetchNow} loading={fetching}>
              Fetch now
            </Button>
          </Space>
        </div>
      </Form>
      <Descriptions size="small" column={1} style={{ marginTop: 16 }} title="Last run">
        <Descriptions.Item label="Tried">{status.lastAttemptAt ? formatTime(status.lastAttemptAt) : 'never'}</Descriptions.Item>
        <Descriptions.Item label="Last success">
          {status.lastSuccessAt ? formatTime(status.lastSuccessAt) : 'never'}
        </Descriptions.Item>
        <Descriptions.Item label="Pairs priced">{status.lastUpdated}</Descriptions.Item>
        <Descriptions.Item label="Problem">
          {status.lastError ? <Typography.Text type="danger">{status.lastError}</Typography.Text> : 'none'}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** Quotes on Home: the pairs, their source and price, and the ticker feed. Every change is audited. */
export function QuotesScreen() {
  const queryClient = useQueryClient();
  const quotesQuery = useQuery({ queryKey: quotesKeys.all, queryFn: getQuotes });
  const quotes: AdminQuotes | null = quotesQuery.data ?? null;
  const error = quotesQuery.isError ? errorText(quotesQuery.error) : null;
  const load = () => void queryClient.invalidateQueries({ queryKey: quotesKeys.all });
  const [editing, setEditing] = useState<AdminMarketProduct | null>(null);
  const [adding, setAdding] = useState(false);
  const [pricing, setPricing] = useState<AdminMarketProduct | null>(null);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>Quotes</Typography.Title>
      {error && <Alert type="error" showIcon title={error} />}
      <Card
        size="small"
        title="Pairs on Home"
        extra={
          <Button type="primary" onClick={() => setAdding(true)} data-testid="quote-add">
            Add a pair
          </Button>
        }
      >
        <Table<AdminMarketProduct>
          rowKey="id"
          size="small"
          loading={quotes === null && !error}
          dataSource={quotes?.products ?? []}
          pagination={false}
          columns={[
            { title: 'Order', dataIndex: 'sortOrder', width: 70 },
            {
              title: 'Pair',
              dataIndex: 'symbol',
              render: (symbol: string, product) => (
                <Space orientation="vertical" size={0}>
                  <Typography.Text strong>{symbol}</Typography.Text>
                  <Typography.Text type="secondary">{product.displayName}</Typography.Text>
                </Space>
              ),
            },
            { title: 'Source', dataIndex: 'source', render: (source: AdminMarketProduct['source']) => SOURCE_LABELS[source] },
            {
              title: 'Price',
              dataIndex: 'price',
              render: (price: string | null, product) => (
                <Space>
                  <span data-testid={`quote-admin-price-${product.symbol}`}>{price ?? '—'}</span>
                  {product.stale && <Tag color="orange">stale</Tag>}
                </Space>
              ),
            },
            { title: '24 h', dataIndex: 'changePct24h', render: (change: string | null) => <ChangeTag change={change} /> },
            {
              title: 'As of',
              dataIndex: 'quotedAt',
              render: (quotedAt: string | null) => (quotedAt ? formatTime(quotedAt) : '—'),
            },
            {
              title: 'Shown',
              dataIndex: 'enabled',
              render: (enabled: boolean) => (enabled ? <Tag color="green">shown</Tag> : <Tag>hidden</Tag>),
            },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, product) => (
                <Space>
                  <Button size="small" onClick={() => setEditing(product)}>
                    Edit
                  </Button>
                  {product.source === 'manual' && (
                    <Button size="small" onClick={() => setPricing(product)} data-testid={`quote-set-price-${product.symbol}`}>
                      Set price
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {quotes && <FeedCard quotes={quotes} onChanged={load} />}
      <ProductDrawer
        product={editing}
        open={adding || editing !== null}
        onClose={() => {
          setAdding(false);
          setEditing(null);
        }}
        onSaved={load}
      />
      <PriceDrawer product={pricing} onClose={() => setPricing(null)} onSaved={load} />
    </Space>
  );
}
