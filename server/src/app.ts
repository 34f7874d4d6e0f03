import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { APP_VERSION, REQUEST_TIMEOUT_MS, healthResponse } from '@custos/contract';
import type { AppConfig } from './config.js';
import type { Services } from './container.js';
import type { Database } from './db/client.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { registerStorableTextGuard } from './http/storable-text.js';
import { registerRequestContext } from './http/request-context.js';
import { CONSOLE_POLICY, inlineSources, registerSecurityHeaders, sendPageWithStyleNonce } from './http/security-headers.js';
import { builtAppStaticOptions } from './http/static-files.js';
import { trustFunction } from './http/trusted-proxy.js';
import { commonRoutes } from './modules/common/common.routes.js';
import './modules/auth/member-session.js';
import { operatorAuthRoutes } from './modules/operators/operator.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { userRoutes } from './modules/auth/user.routes.js';
import { securityRoutes } from './modules/security/security.routes.js';
import { adminMembersRoutes } from './modules/admin-members/admin-members.routes.js';
import { mailRoutes } from './modules/mail/mail.routes.js';
import { accountRoutes } from './modules/accounts/account.routes.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { auditRoutes } from './modules/operators/audit-log.routes.js';
import { assetsRoutes } from './modules/assets/assets.routes.js';
import { exchangeRoutes } from './modules/exchange/exchange.routes.js';
import { transferRoutes } from './modules/transfers/transfer.routes.js';
import { chainRoutes } from './modules/chain/chain.routes.js';
import { withdrawRoutes } from './modules/withdraw/withdraw.routes.js';
import { hostingRoutes } from './modules/hosting/hosting.routes.js';
import { machinesRoutes } from './modules/machines/machines.routes.js';
import { earningsRoutes } from './modules/earnings/earnings.routes.js';
import { teamEarningsRoutes } from './modules/team-earnings/team-earnings.routes.js';
import { teamOperationsRoutes, teamRoutes } from './modules/team/team.routes.js';
import { airdropsRoutes } from './modules/airdrops/airdrops.routes.js';
import type { AdjustableClock } from './lib/adjustable-clock.js';
import { testClockRoutes } from './modules/common/test-clock.routes.js';
import { ledgerRoutes } from './modules/ledger/ledger.routes.js';
import { adminOperatorsRoutes } from './modules/admin-operators/admin-operators.routes.js';
import { memberEventsRoutes } from './modules/notifications/member-events.routes.js';
import { feedbackRoutes } from './modules/feedback/feedback.routes.js';
import { supportChatRoutes } from './modules/support-chat/support-chat.routes.js';
import { contentRoutes } from './modules/content/content.routes.js';
import { quotesRoutes } from './modules/quotes/quotes.routes.js';
import { helpRoutes } from './modules/content/help.routes.js';
import { documentsRoutes } from './modules/content/documents.routes.js';
import { otcRoutes } from './modules/otc/otc.routes.js';
import { releasesRoutes } from './modules/releases/releases.routes.js';
import { contractsRoutes } from './modules/contracts/contracts.routes.js';
import { manualQuotesRoutes } from './modules/contracts/manual-quotes.routes.js';

const REQUEST_ID_PATTERN = /^[\w.:-]{1,64}$/;

export interface BuildAppOptions {
  config: AppConfig;
  database: Database;
  services: Services;
  logger: FastifyBaseLogger;
  /** Only with TEST_CLOCK_CONTROL: the clock POST /api/test/clock moves. */
  clock?: AdjustableClock;
}

export async function buildApp({ config, database, services, logger, clock }: BuildAppOptions): Promise<FastifyInstance> {
  const startedAt = Date.now();
  let stopping = false;

  const app = Fastify({
    loggerInstance: logger,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    // Fastify walks X-Forwarded-For from the socket leftwards while the hop is trusted (TRUST_PROXY).
    trustProxy: config.trustProxy ? trustFunction(config.trustProxy) : false,
    bodyLimit: 1_048_576,
    connectionTimeout: REQUEST_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestContext(app);
  // Filled by the member and operator session checks of the routes that need them (their modules
  // declare the fields).
  app.decorateRequest('memberSession', null);
  app.decorateRequest('operatorSession', null);
  registerErrorHandling(app);
  registerStorableTextGuard(app);
  // The member app's page holds its launch script and its style sheet (decisions 047 and 048): its
  // policy allows exactly those.
  const memberAppPage = config.webDistDir ? path.join(config.webDistDir, 'index.html') : null;
  await registerSecurityHeaders(app, {
    memberAppInline: memberAppPage && existsSync(memberAppPage) ? inlineSources(readFileSync(memberAppPage, 'utf8')) : undefined,
  });
  await app.register(formbody);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Custos API',
        version: APP_VERSION,
        description:
          'Every response is an envelope { code, message, data }; code 200 is success. Send `lang` (CN, EN, JP, KO, DE, FH, TW) for messages in that language and `Authorization` with the session token.',
      },
      components: {
        securitySchemes: {
          memberToken: { type: 'apiKey', in: 'header', name: 'Authorization' },
          operatorToken: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get(
    '/healthz',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_request, reply) => {
      await database.ping();
      if (stopping) void reply.code(503);
      return {
        status: stopping ? 'stopping' : 'ok',
        database: database.kind,
        uptimeS: Math.floor((Date.now() - startedAt) / 1000),
      } as const;
    },
  );

  await app.register(commonRoutes, { service: services.common });
  await app.register(operatorAuthRoutes, { service: services.operators });
  await app.register(authRoutes, { service: services.auth });
  await app.register(userRoutes, { service: services.auth });
  await app.register(securityRoutes, {
    auth: services.auth,
    service: services.security,
    avatars: () => services.common.avatars(),
  });
  await app.register(adminMembersRoutes, { service: services.adminMembers, operators: services.operators });
  await app.register(mailRoutes, { service: services.mail, operators: services.operators });
  await app.register(accountRoutes, { service: services.accounts, auth: services.auth });
  await app.register(identityRoutes, { service: services.identity, auth: services.auth, operators: services.operators });
  await app.register(auditRoutes, { repository: services.audit, operators: services.operators });
  await app.register(assetsRoutes, { service: services.assets, auth: services.auth });
  await app.register(exchangeRoutes, { service: services.exchange, auth: services.auth, operators: services.operators });
  await app.register(transferRoutes, { service: services.transfers, auth: services.auth });
  await app.register(chainRoutes, { service: services.chain, auth: services.auth, operators: services.operators });
  await app.register(withdrawRoutes, { service: services.withdraw, auth: services.auth, operators: services.operators });
  // End-to-end tests only (TEST_CLOCK_CONTROL): move the clock to advance the platform day.
  if (clock) await app.register(testClockRoutes, { clock });
  await app.register(earningsRoutes, { service: services.earnings, auth: services.auth, operators: services.operators });
  await app.register(teamRoutes, { service: services.team, auth: services.auth, operators: services.operators });
  await app.register(teamEarningsRoutes, { service: services.teamEarnings, auth: services.auth, operators: services.operators });
  await app.register(teamOperationsRoutes, { service: services.teamOperations, operators: services.operators });
  await app.register(airdropsRoutes, { service: services.airdrops, operators: services.operators });
  await app.register(machinesRoutes, { service: services.machines, auth: services.auth, operators: services.operators });
  await app.register(hostingRoutes, {
    service: services.hosting,
    settlement: services.settlement,
    auth: services.auth,
    operators: services.operators,
  });
  await app.register(ledgerRoutes, {
    ledger: services.ledger,
    adjustments: services.adjustments,
    accounts: services.accountRepository,
    operators: services.operators,
  });
  await app.register(adminOperatorsRoutes, { service: services.adminOperators, operators: services.operators });
  await app.register(memberEventsRoutes, { service: services.memberEvents, auth: services.auth });
  await app.register(feedbackRoutes, { service: services.feedback, auth: services.auth, operators: services.operators });
  await app.register(supportChatRoutes, {
    service: services.supportChat,
    events: services.operatorEvents,
    auth: services.auth,
    operators: services.operators,
  });
  await app.register(contentRoutes, {
    service: services.content,
    auth: services.auth,
    operators: services.operators,
    storage: services.storage,
  });
  await app.register(quotesRoutes, { service: services.quotes, operators: services.operators });
  await app.register(helpRoutes, { service: services.help, operators: services.operators });
  await app.register(documentsRoutes, { service: services.documents, operators: services.operators, storage: services.storage });
  await app.register(otcRoutes, {
    service: services.otc,
    events: services.otcOperatorEvents,
    auth: services.auth,
    operators: services.operators,
  });
  await app.register(releasesRoutes, {
    service: services.releases,
    auth: services.auth,
    operators: services.operators,
    storage: services.storage,
  });
  await app.register(contractsRoutes, {
    service: services.contracts,
    quoteStream: services.contractQuotes,
    auth: services.auth,
    operators: services.operators,
  });
  await app.register(manualQuotesRoutes, { service: services.contractManualQuotes, operators: services.operators });

  if (config.webDistDir && existsSync(config.webDistDir)) {
    await app.register(fastifyStatic, { ...builtAppStaticOptions(config.webDistDir, '/'), index: ['index.html'] });
  }
  if (config.adminDistDir && existsSync(config.adminDistDir)) {
    // The console's page is answered here, with a fresh style nonce each time (antd writes <style>
    // elements); its assets are plain files.
    const consolePage = readFileSync(path.join(config.adminDistDir, 'index.html'), 'utf8');
    const consoleFiles = builtAppStaticOptions(config.adminDistDir, '/admin/');
    await app.register(fastifyStatic, {
      ...consoleFiles,
      index: false,
      globIgnore: [...consoleFiles.globIgnore, 'index.html'],
      decorateReply: false,
    });
    app.get('/admin', { schema: { hide: true } }, (_request, reply) => reply.redirect('/admin/', 301));
    for (const url of ['/admin/', '/admin/index.html']) {
      app.get(url, { schema: { hide: true } }, (_request, reply) => sendPageWithStyleNonce(reply, consolePage, CONSOLE_POLICY));
    }
  }

  app.addHook('onClose', async () => {
    stopping = true;
  });
  return app;
}
