/**
 * The in-process message bus. Commands and queries have exactly one handler
 * and answer the sender (`ask`) with the reply the catalog names for them
 * (`Replies`); events and notifications go to every subscriber (`publish`)
 * and answer nobody. Every handler runs off the mailbox of the actor
 * (context) that registered it. Messages built through the bus carry the
 * time of the app's clock.
 */
import { Mailbox } from './actor.js';
import {
  type AnyMessage,
  type Asked,
  type AskedType,
  type ContextName,
  type Event,
  type Meta,
  type MetaInit,
  type MessageOf,
  type MessageType,
  type Notification,
  type ReplyOf,
  message,
  newMeta,
} from './messages/index.js';

type Handler<M extends AnyMessage, R> = (message: M) => Promise<R>;
type KeyOf<M extends AnyMessage> = (message: M) => string;

interface Route {
  readonly actor: ContextName;
  readonly handler: Handler<AnyMessage, unknown>;
  readonly key: KeyOf<AnyMessage>;
}

export type Published = Event | Notification;

export interface BusOptions {
  /** The app's clock: the time every message built through the bus is stamped with (default Date.now). */
  readonly clock?: () => number;
}

export class Bus {
  private readonly clock: () => number;
  private readonly mailboxes = new Map<ContextName, Mailbox>();
  private readonly handlers = new Map<string, Route>();
  private readonly subscribers = new Map<string, Route[]>();
  private readonly taps: ((message: AnyMessage) => void)[] = [];
  private readonly failures: ((error: unknown, message: AnyMessage, actor: ContextName) => void)[] = [];

  constructor(options: BusOptions = {}) {
    this.clock = options.clock ?? Date.now;
  }

  /** Builds a message stamped with the app's clock (`init.messageId`: the id of the audit event it was stored as). */
  message<T extends MessageType>(
    type: T,
    data: MessageOf<T>['data'],
    sourceContext: ContextName,
    init: MetaInit = {},
  ): MessageOf<T> {
    return message(type, data, sourceContext, { ...init, timestamp: init.timestamp ?? this.clock() });
  }

  /** A fresh envelope stamped with the app's clock, for a call that carries one without a message. */
  meta(sourceContext: ContextName, init: MetaInit = {}): Meta {
    return newMeta(sourceContext, { ...init, timestamp: init.timestamp ?? this.clock() });
  }

  private mailbox(actor: ContextName): Mailbox {
    let box = this.mailboxes.get(actor);
    if (!box) {
      box = new Mailbox(actor);
      this.mailboxes.set(actor, box);
    }
    return box;
  }

  /** Registers the one handler of a command or query type; it answers with the type's reply. */
  handle<T extends AskedType>(
    actor: ContextName,
    type: T,
    handler: Handler<MessageOf<T>, ReplyOf<T>>,
    key: KeyOf<MessageOf<T>> = () => type,
  ): void {
    if (this.handlers.has(type)) throw new Error(`${type} already has a handler`);
    this.handlers.set(type, { actor, handler: handler as Handler<AnyMessage, unknown>, key: key as KeyOf<AnyMessage> });
  }

  /** Subscribes an actor to an event or notification type. */
  subscribe<T extends Published['type']>(
    actor: ContextName,
    type: T,
    handler: Handler<MessageOf<T>, void>,
    key: KeyOf<MessageOf<T>> = () => type,
  ): void {
    const list = this.subscribers.get(type) ?? [];
    list.push({ actor, handler: handler as Handler<AnyMessage, unknown>, key: key as KeyOf<AnyMessage> });
    this.subscribers.set(type, list);
  }

  /** Sends a command or query to its handler and waits for the answer. */
  ask<M extends Asked>(message: M): Promise<ReplyOf<M['type']>> {
    const route = this.handlers.get(message.type);
    if (!route) return Promise.reject(new Error(`no handler for ${message.type}`));
    this.notifyTaps(message);
    return this.mailbox(route.actor).post(route.key(message), () => route.handler(message)) as Promise<
      ReplyOf<M['type']>
    >;
  }

  /** Delivers an event or notification to every subscriber's mailbox. */
  publish(message: Published): void {
    this.notifyTaps(message);
    for (const route of this.subscribers.get(message.type) ?? []) {
      void this.mailbox(route.actor)
        .post(route.key(message), () => route.handler(message))
        .catch((error: unknown) => {
          for (const report of this.failures) report(error, message, route.actor);
        });
    }
  }

  /** Sees every message that passes (logging, tests, the notification port). */
  tap(listener: (message: AnyMessage) => void): () => void {
    this.taps.push(listener);
    return () => this.taps.splice(this.taps.indexOf(listener), 1);
  }

  onFailure(listener: (error: unknown, message: AnyMessage, actor: ContextName) => void): void {
    this.failures.push(listener);
  }

  /** Resolves when every mailbox is empty, including work that work posted. */
  async idle(): Promise<void> {
    for (;;) {
      const busy = [...this.mailboxes.values()].filter((box) => box.size > 0);
      if (busy.length === 0) return;
      await Promise.all(busy.map((box) => box.idle()));
    }
  }

  depth(): Record<string, number> {
    return Object.fromEntries([...this.mailboxes].map(([name, box]) => [name, box.size]));
  }

  private notifyTaps(message: AnyMessage): void {
    for (const tap of this.taps) tap(message);
  }
}
