import {
  addBankMethodRequest,
  addWalletMethodRequest,
  otcAppealRequest,
  otcBuyRequest,
  otcPostListingRequest,
  otcSellRequest,
  type WithdrawMethod,
} from '@custos/contract';
import { gradientPng } from './content.js';
import { DEMO_MEMBER, type DemoContext } from './context.js';

/**
 * Demo OTC traders (decision 031): members of their own (not in the demo member's team, so the
 * team's figures stay as they were), real-name approved by the demo operator, with payment methods
 * and USDT. Same passwords as the demo member.
 */
export const DEMO_OTC_TRADERS = ['lin@custos.example', 'chen@custos.example', 'zhao@custos.example'] as const;
const [LIN, CHEN, ZHAO] = DEMO_OTC_TRADERS;
const OPENING_USDT = '5000.0000';

async function approveRealName(demo: DemoContext, email: string, realName: string, idNumber: string): Promise<void> {
  const { services } = demo;
  const member = await demo.actAs(email);
  if ((await services.identity.state(member)).status !== 'unverified') return;
  const image = gradientPng(64, 40, [200, 210, 230], [120, 140, 190]).toString('base64');
  const [front, back, selfie] = [
    await services.identity.upload(member, 'identity', image),
    await services.identity.upload(member, 'identity', image),
    await services.identity.upload(member, 'identity', image),
  ];
  await services.identity.submit(member, {
    documentType: 'passport',
    idNumber,
    realName,
    frontImageId: front,
    backImageId: back,
    selfieImageId: selfie,
  });
  const { items } = await services.identity.queue('pending', 1, 100);
  const mine = items.find((item) => item.memberId === member.member.id);
  if (!mine) throw new Error(`demo: ${email}'s real-name submission is missing`);
  // Reviewed as the demo operator (the review reads only who decided, for its audit record).
  const operator = {
    sessionId: 'demo-seed',
    operator: { id: demo.operatorId, username: 'demo', role: 'super_admin' as const, mustChangePassword: false, totpBound: true },
  };
  await services.identity.review(operator, mine.id, { approve: true }, demo.origin);
}

async function methodsOf(demo: DemoContext, email: string): Promise<WithdrawMethod[]> {
  return demo.services.withdraw.methods(await demo.readAs(email));
}

/**
 * A living OTC market: listings on both sides, an order in progress (paid, waiting for release) and
 * an appeal waiting in the console's queue. Everything goes through the members' and operators' own
 * calls; nothing is added when lin already has a listing.
 */
export async function seedOtc(demo: DemoContext): Promise<void> {
  const { services } = demo;
  const { rootInviteCode } = await services.settings.get('registration');
  for (const email of DEMO_OTC_TRADERS) {
    await demo.join(email, rootInviteCode);
    await demo.creditOnce(email, 'USDT', OPENING_USDT);
  }
  const lin = await demo.readAs(LIN);
  if ((await services.otc.listings.myListings(lin, {}, 1, 1)).total > 0) return;
  await approveRealName(demo, LIN, 'Lin Wei', 'E12345678');
  await approveRealName(demo, CHEN, 'Chen Jie', 'E23456789');
  await approveRealName(demo, ZHAO, 'Zhao Min', 'E34567890');

  const add = async (email: string, kind: 'bank' | 'wechat' | 'alipay', body: Record<string, string>) => {
    const member = await demo.actAs(email);
    if (kind === 'bank') return services.withdraw.addBank(member, addBankMethodRequest.parse(body));
    return services.withdraw.addWallet(member, kind, addWalletMethodRequest.parse(body));
  };
  if ((await methodsOf(demo, LIN)).length === 0) {
    await add(LIN, 'bank', {
      bankName: 'China Merchants Bank',
      cardNumber: '6225880212345678',
      holderName: 'Lin Wei',
      branch: 'Shenzhen Futian',
    });
    await add(LIN, 'alipay', { holderName: 'Lin Wei', account: 'linwei@alipay.example' });
  }
  if ((await methodsOf(demo, CHEN)).length === 0) {
    await add(CHEN, 'bank', {
      bankName: 'ICBC',
      cardNumber: '6222020212349876',
      holderName: 'Chen Jie',
      branch: 'Shanghai Pudong',
    });
    await add(CHEN, 'wechat', { holderName: 'Chen Jie', account: 'chenjie_wx' });
  }
  if ((await methodsOf(demo, ZHAO)).length === 0) {
    await add(ZHAO, 'alipay', { holderName: 'Zhao Min', account: 'zhaomin@alipay.example' });
    await add(ZHAO, 'wechat', { holderName: 'Zhao Min', account: 'zhaomin_wx' });
  }
  const ids = async (email: string, type?: WithdrawMethod['type']) =>
    (await methodsOf(demo, email)).filter((method) => type === undefined || method.type === type).map((method) => method.id);

  // Listings on both sides.
  const linSell = await services.otc.listings.post(
    await demo.actAs(LIN),
    otcPostListingRequest.parse({
      side: 'sell',
      quantity: '1000',
      price: '7.20',
      minPerOrder: '50',
      maxPerOrder: '500',
      splittable: true,
      paymentMethodIds: await ids(LIN),
      paymentWindowMinutes: 15,
      terms: 'Bank transfer or Alipay from an account in your own name only. I release within minutes.',
      idempotencyKey: 'demo-otc-lin-sell',
    }),
  );
  await services.otc.listings.post(
    await demo.actAs(ZHAO),
    otcPostListingRequest.parse({
      side: 'sell',
      quantity: '300',
      price: '7.25',
      minPerOrder: '300',
      maxPerOrder: '300',
      splittable: false,
      paymentMethodIds: await ids(ZHAO, 'alipay'),
      paymentWindowMinutes: 20,
      terms: 'Whole amount only, Alipay.',
      idempotencyKey: 'demo-otc-zhao-sell',
    }),
  );
  const chenBuy = await services.otc.listings.post(
    await demo.actAs(CHEN),
    otcPostListingRequest.parse({
      side: 'buy',
      quantity: '800',
      price: '7.15',
      minPerOrder: '20',
      maxPerOrder: '400',
      splittable: true,
      paymentMethodIds: await ids(CHEN),
      paymentWindowMinutes: 15,
      terms: 'I pay by bank transfer or WeChat within 10 minutes.',
      idempotencyKey: 'demo-otc-chen-buy',
    }),
  );

  // An order in progress: chen bought 100 USDT from lin and marked it paid; lin has yet to release.
  const inProgress = await services.otc.orders.buy(
    await demo.actAs(CHEN),
    otcBuyRequest.parse({ listingId: linSell.id, amount: '100', idempotencyKey: 'demo-otc-order-1' }),
  );
  await services.otc.orders.confirmPay(await demo.actAs(CHEN), inProgress.id);

  // An appeal waiting in the queue: zhao sold 60 USDT into chen's buy listing; chen says he paid, zhao
  // says nothing arrived. Appeals open once the release window has passed: the demo opens it at once
  // (window 0 for this one order, then the default again; both changes audited under the demo operator).
  const sold = await services.otc.orders.sell(
    await demo.actAs(ZHAO),
    otcSellRequest.parse({
      listingId: chenBuy.id,
      amount: '60',
      paymentMethodIds: await ids(ZHAO, 'wechat'),
      tradePassword: DEMO_MEMBER.tradePassword,
      idempotencyKey: 'demo-otc-order-2',
    }),
  );
  const actor = { operatorId: demo.operatorId, origin: demo.origin };
  const settings = await services.otc.console.getSettings();
  await services.otc.console.updateSettings(actor, { ...settings, releaseWindowMinutes: 0 });
  try {
    await services.otc.orders.confirmPay(await demo.actAs(CHEN), sold.id);
  } finally {
    await services.otc.console.updateSettings(actor, settings);
  }
  const chen = await demo.actAs(CHEN);
  await services.otc.chat.chatSend(chen, { orderId: sold.id, text: 'I sent 429.00 CNY by WeChat at 10:02, please check.' });
  await services.otc.chat.chatSend(await demo.actAs(ZHAO), { orderId: sold.id, text: 'Nothing has arrived on my WeChat yet.' });
  const evidence = await services.identity.upload(
    chen,
    'otc',
    gradientPng(120, 200, [240, 240, 240], [90, 180, 90]).toString('base64'),
  );
  await services.otc.orders.appeal(
    chen,
    otcAppealRequest.parse({
      orderId: sold.id,
      reason: 'paid_not_released',
      description: 'Paid 429.00 CNY by WeChat; the screenshot of the transfer is attached.',
      imageIds: [evidence],
    }),
  );
}
