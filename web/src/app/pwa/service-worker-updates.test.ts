import { describe, expect, it } from 'vitest';
import { watchForUpdates, type ServiceWorkerHost } from './service-worker-updates';

/** A worker as the page sees it: its state, and what the page posted to it. */
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  readonly messages: unknown[] = [];
  postMessage(message: unknown): void {
    this.messages.push(message);
  }
  finishInstall(): void {
    this.state = 'installed';
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  /** The browser found a new worker script and installs it; it then waits. */
  deploy(): FakeWorker {
    const worker = new FakeWorker();
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    this.installing = null;
    this.waiting = worker;
    worker.finishInstall();
    return worker;
  }
}

function setUp({ controlled, answer }: { controlled: boolean; answer: boolean }) {
  const registration = new FakeRegistration();
  let controllerChange: () => void = () => undefined;
  const asked: number[] = [];
  let reloads = 0;
  const host: ServiceWorkerHost = {
    register: () => Promise.reject(new Error('not used')),
    controller: () => (controlled ? ({} as ServiceWorker) : null),
    onControllerChange: (listener) => (controllerChange = listener),
    reload: () => (reloads += 1),
  };
  watchForUpdates(registration as unknown as ServiceWorkerRegistration, {
    host,
    confirmUpdate: () => {
      asked.push(asked.length);
      return Promise.resolve(answer);
    },
  });
  return { registration, asked, reloads: () => reloads, takeOver: () => controllerChange() };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the new-version prompt of the installable web app', () => {
  it('asks once a new deployment has installed beside the running version, and on consent lets it take over and reloads', async () => {
    const app = setUp({ controlled: true, answer: true });
    const worker = app.registration.deploy();
    await flush();
    expect(app.asked).toEqual([0]);
    expect(worker.messages).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(app.reloads()).toBe(0);
    app.takeOver();
    app.takeOver();
    expect(app.reloads()).toBe(1);
  });

  it('keeps the running version when the member declines', async () => {
    const app = setUp({ controlled: true, answer: false });
    const worker = app.registration.deploy();
    await flush();
    expect(app.asked).toEqual([0]);
    expect(worker.messages).toEqual([]);
    expect(app.reloads()).toBe(0);
  });

  it('does not ask on the first visit, when the first version installs', async () => {
    const app = setUp({ controlled: false, answer: true });
    const worker = app.registration.deploy();
    await flush();
    expect(app.asked).toEqual([]);
    expect(worker.messages).toEqual([]);
    app.takeOver();
    expect(app.reloads()).toBe(0);
  });
});
