import {
  teamLevelPreviewResponse,
  teamLevelVersionSchema,
  teamLevelVersionsResponse,
  type TeamLevelInput,
} from '@custos/contract';
import { consoleRequest } from '../../../lib/api';

/** Every level table with the day it applies from, newest first. */
export function listLevelVersions() {
  return consoleRequest({ method: 'GET', path: '/api/admin/team/levels', data: teamLevelVersionsResponse });
}

/** Saves a level table in force from the next platform day (audited). */
export function saveLevels(levels: TeamLevelInput[]) {
  return consoleRequest({ method: 'PUT', path: '/api/admin/team/levels', body: { levels }, data: teamLevelVersionSchema });
}

/** Who would change level under `levels` instead of today's table. */
export function previewLevels(levels: TeamLevelInput[]) {
  return consoleRequest({
    method: 'POST',
    path: '/api/admin/team/levels/preview',
    body: { levels },
    data: teamLevelPreviewResponse,
  });
}
