import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { Database } from './db/client.js';
import { AccountRepository } from './modules/accounts/account.repository.js';
import { AccountService } from './modules/accounts/account.service.js';
import { AdminMembersRepository } from './modules/admin-members/admin-members.repository.js';
import { AdminMembersService } from './modules/admin-members/admin-members.service.js';
import { AdminOperatorsRepository } from './modules/admin-operators/admin-operators.repository.js';
import { AdminOperatorsService } from './modules/admin-operators/admin-operators.service.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { AuthService } from './modules/auth/auth.service.js';
import { VerificationCodeRepository } from './modules/codes/verification-code.repository.js';
import { VerificationCodeService } from './modules/codes/verification-code.service.js';
import { IdentityRepository } from './modules/identity/identity.repository.js';
import { IdentityService } from './modules/identity/identity.service.js';
import { MailRepository } from './modules/mail/mail.repository.js';
import { MailService } from './modules/mail/mail.service.js';
import { createLogTransport, createSmtpTransport, type MailTransport } from './modules/mail/mail.transport.js';
import { MemberRepository } from './modules/members/member.repository.js';
import { SecurityService } from './modules/security/security.service.js';
import { systemClock, type Clock } from './lib/clock.js';
import { CommonService } from './modules/common/common.service.js';
import { OperatorRepository } from './modules/operators/operator.repository.js';
import { OperatorService } from './modules/operators/operator.service.js';
import { RateLimitRepository } from './modules/rate-limit/rate-limit.repository.js';
import { RateLimitService } from './modules/rate-limit/rate-limit.service.js';
import { SettingsRepository } from './modules/settings/settings.repository.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { LedgerRepository } from './modules/ledger/ledger.repository.js';
import { LedgerService } from './modules/ledger/ledger.service.js';
import { AdjustmentRepository } from './modules/ledger/adjustment.repository.js';
import { AdjustmentService } from './modules/ledger/adjustment.service.js';
import { AssetsService } from './modules/assets/assets.service.js';
import { ExchangeRepository } from './modules/exchange/exchange.repository.js';
import { ExchangeService } from './modules/exchange/exchange.service.js';
import { TransferRepository } from './modules/transfers/transfer.repository.js';
import { TransferService } from './modules/transfers/transfer.service.js';
import { AddressDeriver } from './modules/chain/address-derivation.js';
import { ChainRepository } from './modules/chain/chain.repository.js';
import { ChainService } from './modules/chain/chain.service.js';
import { DepositWatcher } from './modules/chain/deposit-watcher.js';
import { EvmChainSource } from './modules/chain/evm-source.js';
import { TronGridChainSource } from './modules/chain/trongrid-source.js';
import { EvmHotWallet } from './modules/chain/evm-hot-wallet.js';
import { WithdrawRepository } from './modules/withdraw/withdraw.repository.js';
import { WithdrawService } from './modules/withdraw/withdraw.service.js';
import { HostingRepository } from './modules/hosting/hosting.repository.js';
import { HostingService } from './modules/hosting/hosting.service.js';
import { SettlementService } from './modules/hosting/settlement.service.js';
import { MachinesRepository } from './modules/machines/machines.repository.js';
import { MachinesService } from './modules/machines/machines.service.js';
import { EarningsRepository } from './modules/earnings/earnings.repository.js';
import { EarningsService } from './modules/earnings/earnings.service.js';
import { TeamRepository } from './modules/team/team.repository.js';
import { TeamService } from './modules/team/team.service.js';
import { TeamEarningsRepository } from './modules/team-earnings/team-earnings.repository.js';
import { TeamEarningsService } from './modules/team-earnings/team-earnings.service.js';
import { TeamOperationsRepository } from './modules/team/team-operations.repository.js';
import { TeamOperationsService } from './modules/team/team-operations.service.js';
import { MemberEventsRepository } from './modules/notifications/member-events.repository.js';
import {
  DEFAULT_CHANNEL_OPTIONS,
  MemberEventsService,
  type ChannelOptions,
} from './modules/notifications/member-events.service.js';
import { FeedbackRepository } from './modules/feedback/feedback.repository.js';
import { FeedbackService } from './modules/feedback/feedback.service.js';
import { ContentRepository } from './modules/content/content.repository.js';
import { ContentService } from './modules/content/content.service.js';
import { DocumentsRepository } from './modules/content/documents.repository.js';
import { DocumentsService } from './modules/content/documents.service.js';
import { ReleasesRepository } from './modules/releases/releases.repository.js';
import { ReleasesService } from './modules/releases/releases.service.js';
import { DownloadSlots } from './lib/storage/download-slots.js';
import { LocalFileStore, type FileStore } from './lib/storage/file-store.js';
import { HelpRepository } from './modules/content/help.repository.js';
import { HelpService } from './modules/content/help.service.js';
import { AirdropsRepository } from './modules/airdrops/airdrops.repository.js';
import { AirdropsService } from './modules/airdrops/airdrops.service.js';
import { BinanceTickerSource } from './modules/quotes/binance-ticker.js';
import { QuotesRepository } from './modules/quotes/quotes.repository.js';
import { QuotesService } from './modules/quotes/quotes.service.js';
import { OperatorEventsRepository } from './modules/notifications/operator-events.repository.js';
import { OtcArbitrationRepository } from './modules/otc/otc-arbitration.repository.js';
import { OtcRepository } from './modules/otc/otc.repository.js';
import { OtcService } from './modules/otc/otc.service.js';
import { OperatorEventsService } from './modules/notifications/operator-events.service.js';
import { SupportChatRepository } from './modules/support-chat/support-chat.repository.js';
import { SupportChatService } from './modules/support-chat/support-chat.service.js';
import { OPERATOR_PERMISSIONS } from '@custos/contract';
import { ContractsService, contractsRepositories } from './modules/contracts/contracts.service.js';
import { ContractQuoteStream } from './modules/contracts/quote-stream.js';
import { ManualQuotesRepository } from './modules/contracts/manual-quotes.repository.js';
import { ManualQuotesService } from './modules/contracts/manual-quotes.service.js';

/** Every service, wired once from the database and configuration. */
export interface Services {
  settings: SettingsService;
  common: CommonService;
  rateLimits: RateLimitService;
  operators: OperatorService;
  audit: AuditRepository;
  mail: MailService;
  auth: AuthService;
  /** E-mail codes; the demo seed registers its members with codes issued here (no mailbox to read). */
  codes: VerificationCodeService;
  adminMembers: AdminMembersService;
  security: SecurityService;
  accounts: AccountService;
  identity: IdentityService;
  accountRepository: AccountRepository;
  ledger: LedgerService;
  adjustments: AdjustmentService;
  assets: AssetsService;
  exchange: ExchangeService;
  transfers: TransferService;
  adminOperators: AdminOperatorsService;
  chain: ChainService;
  /** One per configured network; main starts them where jobs run, tests drive `scan()` themselves. */
  depositWatchers: DepositWatcher[];
  withdraw: WithdrawService;
  hosting: HostingService;
  settlement: SettlementService;
  machines: MachinesService;
  earnings: EarningsService;
  team: TeamService;
  teamEarnings: TeamEarningsService;
  /** Live notifications: features publish in their transactions; the routes keep the channels. */
  memberEvents: MemberEventsService;
  feedback: FeedbackService;
  content: ContentService;
  /** The help centre and platform documents (decision 028). */
  help: HelpService;
  documents: DocumentsService;
  /** RAB airdrop campaigns; main hands it the job runner's scheduler where jobs run. */
  airdrops: AirdropsService;
  /** Moving members between inviters, recomputing and repairing team figures (console). */
  teamOperations: TeamOperationsService;
  /** Home quotes and the ticker feed (decision 027). */
  quotes: QuotesService;
  /** The console's live channel (the customer-service inbox hears members through it). */
  operatorEvents: OperatorEventsService;
  /** Customer-service chat (kefu) and the console's inbox (decision 029). */
  supportChat: SupportChatService;
  /** OTC trading (decision 031) and the console's OTC live channel (operators with otc.read). */
  otc: OtcService;
  otcOperatorEvents: OperatorEventsService;
  /** App releases: packages, staged rollout, rollback and the version config (decision 037). */
  releases: ReleasesService;
  /** Stored files and the per-address download slots (decision 053). */
  storage: { files: FileStore; downloads: DownloadSlots };
  /** Contract orders on forex products (decision 034): ticks, the watcher, stop-out, the book. */
  contracts: ContractsService;
  contractManualQuotes: ManualQuotesService;
  contractQuotes: ContractQuoteStream;
}

export function createServices(
  database: Database,
  config: AppConfig,
  logger: FastifyBaseLogger,
  clock: Clock = systemClock,
  /** Tests hand in a transport that keeps what it is given (the mailbox tests read codes from). */
  overrides: { mailTransport?: MailTransport; channelOptions?: Partial<ChannelOptions> } = {},
): Services {
  const { db } = database;
  const memberEvents = new MemberEventsService(database, new MemberEventsRepository(db), logger, {
    ...DEFAULT_CHANNEL_OPTIONS,
    ...overrides.channelOptions,
  });
  const operatorEvents = new OperatorEventsService(
    database,
    new OperatorEventsRepository(db, OPERATOR_PERMISSIONS['support.chat']),
    logger,
    { ...DEFAULT_CHANNEL_OPTIONS, ...overrides.channelOptions },
  );
  const otcOperatorEvents = new OperatorEventsService(
    database,
    new OperatorEventsRepository(db, OPERATOR_PERMISSIONS['otc.read']),
    logger,
    { ...DEFAULT_CHANNEL_OPTIONS, ...overrides.channelOptions },
  );
  const transport =
    overrides.mailTransport ??
    (config.mail.smtpUrl ? createSmtpTransport(config.mail.smtpUrl, config.mail.from) : createLogTransport(logger));
  const settings = new SettingsService(new SettingsRepository(db));
  const rateLimits = new RateLimitService(new RateLimitRepository(db));
  const audit = new AuditRepository(db);
  const mail = new MailService(new MailRepository(db), transport, settings, logger, audit);
  const memberRepository = new MemberRepository(db);
  const codes = new VerificationCodeService(new VerificationCodeRepository(db), rateLimits);
  const security = new SecurityService(
    db,
    memberRepository,
    codes,
    mail,
    rateLimits,
    async () => (await settings.get('site')).siteName,
    () => clock.now().getTime(),
  );
  const accountRepository = new AccountRepository(db);
  const ledger = new LedgerService(db, new LedgerRepository(db));
  const chainRepository = new ChainRepository(db);
  const bsc = config.chains.bsc;
  const bscWatcher = bsc
    ? new DepositWatcher(
        db,
        new EvmChainSource(bsc.rpcUrl, bsc.tokenAddress, bsc.rpcTimeoutMs),
        chainRepository,
        ledger,
        bsc,
        logger,
        memberEvents,
      )
    : undefined;
  const tron = config.chains.tron;
  const tronWatcher = tron
    ? new DepositWatcher(
        db,
        new TronGridChainSource(tron.apiUrl, tron.tokenAddress, tron.tokenDecimals, tron.apiKey, tron.timeoutMs),
        chainRepository,
        ledger,
        tron,
        logger,
        memberEvents,
      )
    : undefined;
  const chain = new ChainService(
    chainRepository,
    {
      ...(bsc ? { BEP20: new AddressDeriver('BEP20', bsc.depositXpub) } : {}),
      ...(tron ? { TRC20: new AddressDeriver('TRC20', tron.depositXpub) } : {}),
    },
    { ...(bscWatcher ? { BEP20: bscWatcher } : {}), ...(tronWatcher ? { TRC20: tronWatcher } : {}) },
  );
  const hotWallet =
    bsc?.hotWalletKey !== undefined
      ? new EvmHotWallet(bsc.rpcUrl, bsc.tokenAddress, bsc.hotWalletKey, bsc.rpcTimeoutMs)
      : undefined;
  const withdraw = new WithdrawService(db, new WithdrawRepository(db), ledger, security, settings, audit, {
    timeZone: config.platformTimeZone,
    clock,
    hotWallets: hotWallet ? { BEP20: hotWallet } : {},
    payoutConfirmations: bsc?.payoutConfirmations ?? 3,
    logger,
    events: memberEvents,
  });
  const hostingRepository = new HostingRepository(db);
  const hosting = new HostingService(db, hostingRepository, ledger, security, audit, config.platformTimeZone, clock);
  const settlement = new SettlementService(db, hostingRepository, ledger, audit, config.platformTimeZone, clock, logger);
  const machines = new MachinesService(db, new MachinesRepository(db), ledger, security, audit, config.platformTimeZone, clock);
  settlement.addStep(machines.settlementStep(() => settlement.chunkSize));
  const teamRepository = new TeamRepository(db);
  const teamEarnings = new TeamEarningsService(
    db,
    new TeamEarningsRepository(db),
    teamRepository,
    ledger,
    settings,
    settlement,
    audit,
  );
  const earnings = new EarningsService(db, new EarningsRepository(db), ledger, audit, settlement, teamEarnings);
  // After custody and machines: the dividend shares custody as it stands once the day's orders have moved.
  settlement.addStep(earnings.settlementStep());
  // Team earnings last: the day's static income (interest) is paid by then (docs/decisions/024-team-earnings.md).
  for (const step of teamEarnings.settlementSteps()) settlement.addStep(step);
  const adminMembers = new AdminMembersService(db, new AdminMembersRepository(db), memberRepository, audit, clock);
  const team = new TeamService(db, teamRepository, audit, config.platformTimeZone, clock);
  const supportChat = new SupportChatService(db, new SupportChatRepository(db), audit, memberEvents, operatorEvents, rateLimits, {
    adminMembers,
    team,
    ledger,
    hosting,
  });
  const otc = new OtcService(
    db,
    new OtcRepository(db),
    new OtcArbitrationRepository(db),
    ledger,
    security,
    settings,
    audit,
    memberEvents,
    otcOperatorEvents,
    supportChat,
    rateLimits,
    { timeZone: config.platformTimeZone, clock },
  );
  const files: FileStore = new LocalFileStore(config.storage.directory);
  const quotes = new QuotesService(
    db,
    new QuotesRepository(db),
    settings,
    audit,
    new BinanceTickerSource({ allowedHosts: config.quoteFeedHosts }),
    clock,
    logger,
  );
  const contracts = new ContractsService(db, contractsRepositories(db), ledger, settings, audit, memberEvents, {
    timeZone: config.platformTimeZone,
    clock,
    logger,
  });
  // The ticker's bid and ask become contract ticks (decision 034).
  quotes.onFeedQuotes((feedQuotes) => contracts.watcher.ingestFeed(feedQuotes));
  return {
    settings,
    common: new CommonService(settings, config.platformTimeZone, clock),
    rateLimits,
    audit,
    operators: new OperatorService(
      db,
      new OperatorRepository(db),
      audit,
      rateLimits,
      config.operatorSessionTtlMs,
      async () => (await settings.get('site')).siteName,
      () => clock.now().getTime(),
      config.demo,
    ),
    mail,
    auth: new AuthService(db, memberRepository, codes, mail, settings, rateLimits, config.memberSession),
    codes,
    adminMembers,
    security,
    accounts: new AccountService(db, accountRepository, settings),
    identity: new IdentityService(db, new IdentityRepository(db), audit, rateLimits),
    accountRepository,
    ledger,
    adjustments: new AdjustmentService(db, new AdjustmentRepository(db), ledger, audit, (id) => accountRepository.exists(id)),
    assets: new AssetsService(ledger, settings),
    exchange: new ExchangeService(db, new ExchangeRepository(db), ledger, security, settings, audit),
    transfers: new TransferService(db, new TransferRepository(db), accountRepository, ledger, security),
    adminOperators: new AdminOperatorsService(db, new AdminOperatorsRepository(db), audit),
    chain,
    withdraw,
    hosting,
    settlement,
    machines,
    earnings,
    team,
    teamEarnings,
    teamOperations: new TeamOperationsService(db, new TeamOperationsRepository(db), teamRepository, audit),
    airdrops: new AirdropsService(
      db,
      new AirdropsRepository(db),
      teamRepository,
      ledger,
      audit,
      memberEvents,
      config.platformTimeZone,
      clock,
      logger,
    ),
    memberEvents,
    feedback: new FeedbackService(db, new FeedbackRepository(db), audit, memberEvents, rateLimits),
    content: new ContentService(db, new ContentRepository(db), audit, settings, clock, files),
    quotes,
    help: new HelpService(db, new HelpRepository(db), audit, settings, clock, rateLimits),
    documents: new DocumentsService(db, new DocumentsRepository(db), audit, settings, files),
    depositWatchers: [bscWatcher, tronWatcher].filter((watcher) => watcher !== undefined),
    operatorEvents,
    supportChat,
    otc,
    otcOperatorEvents,
    releases: new ReleasesService(db, new ReleasesRepository(db), audit, clock, files, config.releaseSigningKey),
    storage: { files, downloads: new DownloadSlots(config.storage.downloadsPerAddress) },
    contracts,
    contractManualQuotes: new ManualQuotesService(db, new ManualQuotesRepository(), contracts.watcher, settings, audit, clock),
    contractQuotes: new ContractQuoteStream(contracts.catalog, logger, new MemberEventsRepository(db)),
  };
}
