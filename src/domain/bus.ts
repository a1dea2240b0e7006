/**
 * The in-process message bus. Commands and queries have exactly one handler
 * and answer the sender (`ask`); events and notifications go to every
 * subscriber (`publish`) and answer nobody. Every handler runs off the mailbox
 * of the actor (context) that registered it.
 */
import { Mailbox } from './actor.js';
import type { AnyMessage, Command, ContextName, Event, MessageOf, Notification, Query } from './messages.js';

type Handler<M extends AnyMessage, R> = (message: M) => Promise<R>;
type KeyOf<M extends AnyMessage> = (message: M) => string;

interface Route {
  readonly actor: ContextName;
  readonly handler: Handler<AnyMessage, unknown>;
  readonly key: KeyOf<AnyMessage>;
}

export type Asked = Command | Query;
export type Published = Event | Notification;

export class Bus {
  private readonly mailboxes = new Map<ContextName, Mailbox>();
  private readonly handlers = new Map<string, Route>();
  private readonly subscribers = new Map<string, Route[]>();
  private readonly taps: ((message: AnyMessage) => void)[] = [];
  private readonly failures: ((error: unknown, message: AnyMessage, actor: ContextName) => void)[] = [];

  private mailbox(actor: ContextName): Mailbox {
    let box = this.mailboxes.get(actor);
    if (!box) {
      box = new Mailbox(actor);
      this.mailboxes.set(actor, box);
    }
    return box;
  }

  /** Registers the one handler of a command or query type. */
  handle<T extends Asked['type'], R>(
    actor: ContextName,
    type: T,
    handler: Handler<MessageOf<T>, R>,
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
  ask<R>(message: Asked): Promise<R> {
    const route = this.handlers.get(message.type);
    if (!route) return Promise.reject(new Error(`no handler for ${message.type}`));
    this.notifyTaps(message);
    return this.mailbox(route.actor).post(route.key(message), () => route.handler(message)) as Promise<R>;
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
