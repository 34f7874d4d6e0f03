import { otcOperatorEvent, type OtcOperatorEvent } from '@custos/contract';
import { openOperatorChannel } from '../../../lib/live-channel';

/**
 * The console's OTC live channel (decision 031, topic `otc`): appeals opened or ruled, order steps and
 * chat messages, whichever server instance they happened on. Answers the function that closes it.
 */
export function openOtcChannel(onEvent: (event: OtcOperatorEvent) => void, onOpen: () => void = () => undefined): () => void {
  return openOperatorChannel({
    path: '/api/admin/otc/events',
    parse: (data) => {
      const parsed = otcOperatorEvent.safeParse(data);
      return parsed.success ? parsed.data : null;
    },
    onEvent,
    onOpen,
  });
}
