/**
 * The one client of the sandbox's control endpoints (`/__sandbox/*`, docs/sandbox.md) for tests
 * and benchmarks: one organisation's clock, faults, wallet, withheld refunds, outbox, answer
 * shapes, latency and reset, over real HTTP. Each method returns the endpoint's `data`, typed,
 * and throws with the sandbox's own answer when it refuses. `send` gives the raw answer, for the
 * few tests that check a refusal of the control endpoints themselves.
 *
 * Shared by Vitest and Playwright: no test-runner imports here.
 */
import type { ClockState, FaultView, OutboxView } from '../../src/sandbox/control';
import type { ShapeVariant } from '../../src/sandbox/answerShapes';
import type { CatalogChange } from '../../src/sandbox/catalogChanges';
import type { AccountBalance, Envelope } from '../../src/shared/wire';

/** A fault to inject: the next `count` calls of `path` answer `status` (docs/sandbox.md). */
export interface FaultRequest {
  path: string;
  status: number;
  count?: number;
  /** Only calls that carry a voucher code (electricity tokens) fail. */
  withVoucherOnly?: boolean;
  /** A `Retry-After` header on the fault's answers. */
  retryAfterSeconds?: number;
}

export interface ControlAnswer<T = unknown> {
  status: number;
  body: Envelope<T>;
}

export class SandboxControl {
  /**
   * @param url the sandbox's address (`http://127.0.0.1:PORT`), or a proxy in front of it
   * @param token the organisation's bearer token
   */
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  /** One control call as it is answered, refusals included. `name` is the part after `/__sandbox/`. */
  async send<T = unknown>(method: 'GET' | 'POST' | 'DELETE', name: string, body?: unknown): Promise<ControlAnswer<T>> {
    const response = await fetch(`${this.url}/__sandbox/${name.replace(/^\//, '')}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: Envelope<T>;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`sandbox control ${method} /__sandbox/${name} answered ${response.status} with no JSON: ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: parsed };
  }

  private async data<T>(method: 'GET' | 'POST' | 'DELETE', name: string, body?: unknown): Promise<T> {
    const answer = await this.send<T>(method, name, body);
    if (answer.status !== 200) throw new Error(`sandbox control ${method} /__sandbox/${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  }

  /** The organisation's clock. */
  clock(): Promise<ClockState> {
    return this.data('GET', 'clock');
  }

  /** Moves the organisation's clock on (pending purchases and messages settle as time passes). */
  advanceClock(seconds: number): Promise<ClockState> {
    return this.data('POST', 'clock', { advanceSeconds: seconds });
  }

  /** Holds the organisation's clock (its time moves only when advanced), or lets it run on from where it stands. */
  holdClock(hold = true): Promise<ClockState> {
    return this.data('POST', 'clock', { hold });
  }

  /** The faults still waiting to be answered. */
  async faults(): Promise<FaultView[]> {
    return (await this.data<{ faults: FaultView[] }>('GET', 'faults')).faults;
  }

  /** Makes the next calls of a path fail; returns every fault now waiting. */
  async addFault(fault: FaultRequest): Promise<FaultView[]> {
    return (await this.data<{ faults: FaultView[] }>('POST', 'faults', fault)).faults;
  }

  /** Takes back every fault still waiting. */
  async clearFaults(): Promise<void> {
    await this.data('DELETE', 'faults');
  }

  /** Sets the NGN wallet to this many Naira; the answer is the account balance. */
  setWallet(naira: number): Promise<AccountBalance> {
    return this.data('POST', 'wallet', { balance: naira });
  }

  /** The next `count` refunds of failed purchases are not paid back (the log still shows them FAILED). */
  async withholdRefunds(count: number): Promise<void> {
    await this.data('POST', 'refunds', { withhold: count });
  }

  /** Every SMS and e-mail the service "sent" for this organisation, oldest first. */
  outbox(): Promise<OutboxView[]> {
    return this.data('GET', 'outbox');
  }

  /** Forgets this organisation's data, clock, faults and settings. */
  async reset(): Promise<void> {
    await this.data('POST', 'reset');
  }

  /** The form of this organisation's messaging answers. */
  async shapes(): Promise<ShapeVariant> {
    return (await this.data<{ shapes: ShapeVariant }>('GET', 'shapes')).shapes;
  }

  async setShapes(shapes: ShapeVariant): Promise<void> {
    await this.data('POST', 'shapes', { shapes });
  }

  /** This organisation's added round-trip time, ms (other organisations keep theirs). */
  async latency(): Promise<number> {
    return (await this.data<{ latencyMs: number }>('GET', 'latency')).latencyMs;
  }

  async setLatency(latencyMs: number): Promise<void> {
    await this.data('POST', 'latency', { latencyMs });
  }

  /** Reprices (`amount`, Naira) or withdraws one data plan or cable bouquet for this organisation; answers every change in force. */
  async changeCatalog(change: { catalog: 'data' | 'cable'; productCode: string; amount?: number; withdrawn?: boolean }): Promise<CatalogChange[]> {
    return (await this.data<{ changes: CatalogChange[] }>('POST', 'catalog', change)).changes;
  }

  /** The catalogs back as the sandbox ships them. */
  async clearCatalogChanges(): Promise<void> {
    await this.data('DELETE', 'catalog');
  }
}
