import type { AppConfig } from './config.js';
import type { Database } from './db/client.js';
import { AuditRepository } from './modules/audit/audit.repository.js';
import { CommonService, systemClock, type Clock } from './modules/common/common.service.js';
import { OperatorRepository } from './modules/operators/operator.repository.js';
import { OperatorService } from './modules/operators/operator.service.js';
import { RateLimitRepository } from './modules/rate-limit/rate-limit.repository.js';
import { RateLimitService } from './modules/rate-limit/rate-limit.service.js';
import { SettingsRepository } from './modules/settings/settings.repository.js';
import { SettingsService } from './modules/settings/settings.service.js';

/** Every service, wired once from the database and configuration. */
export interface Services {
  settings: SettingsService;
  common: CommonService;
  rateLimits: RateLimitService;
  operators: OperatorService;
  audit: AuditRepository;
}

export function createServices(database: Database, config: AppConfig, clock: Clock = systemClock): Services {
  const { db } = database;
  const settings = new SettingsService(new SettingsRepository(db));
  const rateLimits = new RateLimitService(new RateLimitRepository(db));
  const audit = new AuditRepository(db);
  return {
    settings,
    common: new CommonService(settings, config.platformTimeZone, clock),
    rateLimits,
    audit,
    operators: new OperatorService(db, new OperatorRepository(db), audit, rateLimits, config.operatorSessionTtlMs),
  };
}
