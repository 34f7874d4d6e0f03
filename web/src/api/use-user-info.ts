import { useQuery } from '@tanstack/react-query';
import { getUserInfo } from './get-user-info';
import { userKeys } from './keys';

/**
 * The member's profile through the query cache (decision 023): every screen that shows it, or asks
 * whether a trading password is set, reads the same entry, and a change invalidates `userKeys`.
 */
export function useUserInfo() {
  return useQuery({ queryKey: userKeys.info(), queryFn: getUserInfo });
}
