import { useCallback, useSyncExternalStore } from 'react';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n/translator';
import { ApiError } from '../lib/api/errors';

/** A read that got no answer: the connection is gone, the server unreachable, or 60 s passed. */
function lostConnection(query: Query): boolean {
  const { status, fetchStatus, error } = query.state;
  return (
    query.getObserversCount() > 0 &&
    status === 'error' &&
    fetchStatus === 'idle' &&
    error instanceof ApiError &&
    (error.kind === 'unreachable' || error.kind === 'timeout')
  );
}

function anyLost(client: QueryClient): boolean {
  return client.getQueryCache().getAll().some(lostConnection);
}

/**
 * Spec §8 "connection to the server timed out, tap the screen to retry": shown over the screen
 * when what it shows could not be read for want of a connection (the installed app opened
 * offline, the server gone); a tap reads again everything the screen failed to read.
 */
export function ConnectionTimeout() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const subscribe = useCallback((onChange: () => void) => client.getQueryCache().subscribe(onChange), [client]);
  const lost = useSyncExternalStore(subscribe, () => anyLost(client));
  if (!lost) return null;
  return (
    <button
      type="button"
      className="connection-timeout"
      data-testid="connection-timeout"
      onClick={() => void client.refetchQueries({ type: 'active', predicate: lostConnection })}
    >
      {t('common.requestTimeout')}
    </button>
  );
}
