import { NotYetOpen } from './NotYetOpen';

export default function NotYetOpenScreen() {
  return <NotYetOpen />;
}
