import { useQuery } from '@tanstack/react-query';
import { getOtcInfo } from './api/get-info';
import { otcKeys } from './api/keys';

/** The OTC settings and what the member may do, shared by every OTC screen through the cache. */
export function useOtcInfo() {
  return useQuery({ queryKey: otcKeys.info(), queryFn: getOtcInfo });
}
