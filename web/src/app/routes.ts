import type { PageLoader } from './lazy-page';

export type TabIndex = 0 | 1 | 2 | 3 | 4;

export interface AppRoute {
  /** Key under `routes.` in the locale files: the page title. */
  id: string;
  path: string;
  /** Tab pages show the tab bar instead of a back arrow. */
  tab?: TabIndex;
  /** Pages with their own header (log-in). */
  customHeader?: boolean;
  load: PageLoader;
}

const notYetOpen: PageLoader = () => import('../components/NotYetOpenScreen');
const login: PageLoader = () => import('../features/auth/screens/LoginScreen');

/** Every route of product.md §2, with the spec's paths so existing links keep working. */
export const ROUTES: readonly AppRoute[] = [
  { id: 'login', path: '/', customHeader: true, load: login },
  { id: 'login', path: '/pages/login/login', customHeader: true, load: login },
  { id: 'login1', path: '/pages/login/login1', load: () => import('../features/auth/screens/CodeLoginScreen') },
  { id: 'login2', path: '/pages/login/login2', load: () => import('../features/language/screens/LanguageScreen') },
  { id: 'register', path: '/pages/register/register', load: () => import('../features/auth/screens/RegisterScreen') },
  {
    id: 'registerVerifyCode',
    path: '/pages/register/verify_code',
    load: () => import('../features/auth/screens/RegisterVerifyScreen'),
  },
  { id: 'register1', path: '/pages/register/register1', load: () => import('../features/auth/screens/RegisterPasswordScreen') },
  {
    id: 'registerVerifyCode1',
    path: '/pages/register/verify_code1',
    load: () => import('../features/auth/screens/CodeLoginVerifyScreen'),
  },
  { id: 'forgetPwd', path: '/pages/forget_pwd/forget_pwd', load: () => import('../features/auth/screens/ForgotScreen') },
  {
    id: 'forgetPwdVerifyCode',
    path: '/pages/forget_pwd/verify_code',
    load: () => import('../features/auth/screens/ForgotVerifyScreen'),
  },
  {
    id: 'forgetPwd1',
    path: '/pages/forget_pwd/forget_pwd1',
    load: () => import('../features/auth/screens/ForgotPasswordScreen'),
  },

  { id: 'index', path: '/pages/index/index', tab: 0, load: () => import('../features/home/screens/HomeScreen') },
  { id: 'index2', path: '/pages/index/index2', tab: 1, load: () => import('../features/hosting/screens/HostingScreen') },
  {
    id: 'blanceRecord6',
    path: '/pages/blance_record/blance_record6',
    tab: 2,
    load: () => import('../features/team/screens/TeamScreen'),
  },
  { id: 'my', path: '/pages/my/my', tab: 3, load: () => import('../features/assets/screens/AssetsScreen') },
  { id: 'index1', path: '/pages/index/index1', tab: 4, load: () => import('./TradeScreen') },

  { id: 'index3', path: '/pages/index/index3', load: () => import('../features/machines/screens/MachinesScreen') },
  { id: 'index4', path: '/pages/index/index4', load: () => import('../features/dividend/screens/DividendScreen') },
  { id: 'index5', path: '/pages/index/index5', load: () => import('../features/content/screens/NewsScreen') },
  {
    id: 'goodsDetail',
    path: '/pages/goods_detail/goods_detail',
    load: () => import('../features/machines/screens/MachineDetailScreen'),
  },
  { id: 'pdf', path: '/pages/pdf/pdf', load: () => import('../features/content/screens/PdfScreen') },
  { id: 'kefu', path: '/pages/kefu/kefu', load: () => import('../features/kefu/screens/KefuScreen') },
  {
    id: 'sharePoster',
    path: '/pages/share_poster/share_poster',
    load: () => import('../features/team/screens/SharePosterScreen'),
  },

  { id: 'setting', path: '/pages/setting/setting', load: () => import('../features/settings/screens/SettingsScreen') },
  { id: 'setting1', path: '/pages/setting/setting1', load: () => import('../features/settings/screens/ProfileScreen') },
  { id: 'setting2', path: '/pages/setting/setting2', load: () => import('../features/settings/screens/SecurityScreen') },
  { id: 'setting3', path: '/pages/setting/setting3', load: () => import('../features/identity/screens/IdentityScreen') },
  { id: 'setting4', path: '/pages/setting/setting4', load: () => import('../features/settings/screens/AuthenticatorScreen') },
  { id: 'setting5', path: '/pages/setting/setting5', load: () => import('../features/settings/screens/AboutScreen') },

  {
    id: 'blanceRecord',
    path: '/pages/blance_record/blance_record',
    load: () => import('../features/balance-log/screens/BalanceLogScreen'),
  },
  {
    id: 'blanceRecord3',
    path: '/pages/blance_record/blance_record3',
    load: () => import('../features/exchange/screens/ExchangeRecordsScreen'),
  },
  {
    id: 'blanceRecord1',
    path: '/pages/blance_record/blance_record1',
    load: () => import('../features/hosting/screens/CustodyOrdersScreen'),
  },
  {
    id: 'blanceRecord2',
    path: '/pages/blance_record/blance_record2',
    load: () => import('../features/machines/screens/MiningRecordsScreen'),
  },
  {
    id: 'blanceRecord4',
    path: '/pages/blance_record/blance_record4',
    load: () => import('../features/dividend/screens/DividendRecordsScreen'),
  },
  {
    id: 'blanceRecord5',
    path: '/pages/blance_record/blance_record5',
    load: () => import('../features/income/screens/IncomeScreen'),
  },
  {
    id: 'blanceRecord7',
    path: '/pages/blance_record/blance_record7',
    load: () => import('../features/team/screens/TeamMembersScreen'),
  },
  {
    id: 'blanceRecord8',
    path: '/pages/blance_record/blance_record8',
    load: () => import('../features/team/screens/TeamLevelsScreen'),
  },
  {
    id: 'blanceRecord11',
    path: '/pages/blance_record/blance_record11',
    load: () => import('../features/feedback/screens/FeedbackScreen'),
  },
  {
    id: 'blanceRecord9',
    path: '/pages/blance_record/blance_record9',
    load: () => import('../features/otc/screens/MyListingsScreen'),
  },
  {
    id: 'blanceRecord10',
    path: '/pages/blance_record/blance_record10',
    load: () => import('../features/otc/screens/MyOrdersScreen'),
  },
  {
    id: 'blanceRecord12',
    path: '/pages/blance_record/blance_record12',
    load: () => import('../features/contracts/screens/ContractOrdersScreen'),
  },

  { id: 'withdraw', path: '/pages/withdraw/withdraw', load: () => import('../features/withdraw/screens/WithdrawScreen') },
  { id: 'withdraw1', path: '/pages/withdraw/withdraw1', load: () => import('../features/recharge/screens/RechargeScreen') },
  { id: 'withdraw2', path: '/pages/withdraw/withdraw2', load: () => import('../features/withdraw/screens/MethodsScreen') },
  { id: 'withdraw3', path: '/pages/withdraw/withdraw3', load: () => import('../features/withdraw/screens/AddCryptoScreen') },
  { id: 'withdraw4', path: '/pages/withdraw/withdraw4', load: () => import('../features/withdraw/screens/AddBankScreen') },
  { id: 'withdraw5', path: '/pages/withdraw/withdraw5', load: () => import('../features/transfer/screens/TransferScreen') },
  { id: 'withdraw6', path: '/pages/withdraw/withdraw6', load: () => import('../features/exchange/screens/ExchangeScreen') },

  {
    id: 'withdrawRecord',
    path: '/pages/withdraw_record/withdraw_record',
    load: () => import('../features/withdraw/screens/WithdrawRecordsScreen'),
  },
  {
    id: 'withdrawRecord2',
    path: '/pages/withdraw_record/withdraw_record2',
    load: () => import('../features/withdraw/screens/WithdrawalDetailScreen'),
  },
  {
    id: 'withdrawRecord6',
    path: '/pages/withdraw_record/withdraw_record6',
    load: () => import('../features/transfer/screens/TransferRecordsScreen'),
  },
  {
    id: 'withdrawRecord1',
    path: '/pages/withdraw_record/withdraw_record1',
    load: () => import('../features/recharge/screens/DepositRecordsScreen'),
  },
  {
    id: 'withdrawRecord7',
    path: '/pages/withdraw_record/withdraw_record7',
    load: () => import('../features/balance-log/screens/FuelTicketRecordsScreen'),
  },

  {
    id: 'orderDetail',
    path: '/pages/order_detail/order_detail',
    load: () => import('../features/otc/screens/OrderDetailScreen'),
  },
  // Post an OTC listing (decision 032): a route of its own beside the spec's, opened from the Trade tab.
  { id: 'otcPost', path: '/pages/otc/post', load: () => import('../features/otc/screens/PostListingScreen') },
  {
    id: 'updatePwd',
    path: '/pages/update_pwd/update_pwd',
    load: () => import('../features/settings/screens/ChangePasswordScreen'),
  },
  {
    id: 'updatePwd1',
    path: '/pages/update_pwd/update_pwd1',
    load: () => import('../features/settings/screens/TradePasswordChangeScreen'),
  },
  {
    id: 'updatePwd2',
    path: '/pages/update_pwd/update_pwd2',
    load: () => import('../features/auth/screens/ForcedPasswordScreen'),
  },
  {
    id: 'updatePwd3',
    path: '/pages/update_pwd/update_pwd3',
    load: () => import('../features/settings/screens/TradePasswordSetScreen'),
  },
  { id: 'download', path: '/pages/download/download', load: () => import('../features/download/screens/DownloadScreen') },
  { id: 'second', path: '/pages/second/second', load: () => import('../features/accounts/screens/AccountsScreen') },
  { id: 'second1', path: '/pages/second/second1', load: () => import('../features/content/screens/HelpScreen') },
  { id: 'chooseLocation', path: '/choose-location', load: notYetOpen },
  { id: 'openLocation', path: '/open-location', load: notYetOpen },
];

/** The five tabs in the spec's order. */
export const TABS = [
  { index: 0, labelKey: 'tabs.home', path: '/pages/index/index' },
  { index: 1, labelKey: 'tabs.hosting', path: '/pages/index/index2' },
  { index: 2, labelKey: 'tabs.team', path: '/pages/blance_record/blance_record6' },
  { index: 3, labelKey: 'tabs.assets', path: '/pages/my/my' },
  { index: 4, labelKey: 'tabs.trade', path: '/pages/index/index1' },
] as const;

/** Pages where Android back prompts to quit instead of going back. */
export const ROOT_PATHS = new Set<string>(['/', '/pages/login/login', ...TABS.map((tab) => tab.path)]);
