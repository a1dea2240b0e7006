/**
 * An instance name across stores, and retried starts: starting a session in one store neither ends nor names a
 * session of the same instance in another store; a session id reused with other arguments is ID_CONFLICT, while
 * an identical retry returns the session it opened.
 */
import { describe, expect, it } from 'vitest';
import { A, B, as, code, nodes, okAs, refusedWritingNothing, t, tok, useSecurityApp } from './security-fixture.js';

useSecurityApp();

const START =
  'mutation ($in: StartSessionInput!) { startSession(input: $in) ' +
  '{ id store instanceId mindType mode task project endedAt endCause } }';
const DECIDE = 'mutation ($i: String!) { logDecision(instanceId: $i, text: "a decision") { id } }';
const TRANSITION = 'mutation ($i: String!) { transition(instanceId: $i, mode: IDLE, task: "later") { id task } }';

let n = 0;
const instance = () => `si-${A.slice(-6)}-${++n}`;
const sessionId = () => `ses-si-${A.slice(-6)}-${++n}`;

type Started = { id: string; store: string; instanceId: string; mindType: string; task: string | null };
const start = async (token: string, input: Record<string, unknown>) =>
  (await okAs<{ startSession: Started & Record<string, unknown> }>(token, START, { in: input })).startSession;

const stateOf = async (id: string) =>
  (
    await t.cypher<{ store: string; open: boolean; cause: string | null; started: number }>(
      'MATCH (s:Session {id: $id}) RETURN s.store AS store, s.openInstance IS NOT NULL AS open, ' +
        "s.endCause AS cause, COUNT { (e:Event {type: 'SessionStarted'})-[:ABOUT]->(s) } AS started",
      { id },
    )
  )[0];

describe('an instance name in two stores', () => {
  it("a mind of one store is told nothing of another store's session of its instance, and ends none", async () => {
    const i = instance();
    const other = await start(tok.operator, { instanceId: i, mindType: 'x', store: B });
    const res = await as(tok.unboundA, START, { in: { instanceId: i, mindType: 'x' } });
    expect(code(res), JSON.stringify(res.errors)).toBe('CORTEX.INSTANCE_IN_USE');
    const told = JSON.stringify(res.errors);
    for (const secret of [B, other.id, 'FORBIDDEN', 'reach']) expect(told).not.toContain(secret);
    expect(await stateOf(other.id)).toMatchObject({ store: B, open: true, cause: null });
    // Its other calls on the instance answer alike: no open session it may see.
    expect(code(await as(tok.unboundA, DECIDE, { i }))).toBe('CORTEX.NO_OPEN_SESSION');
    await refusedWritingNothing(
      () => as(tok.unboundA, START, { in: { instanceId: i, mindType: 'x' } }),
      'CORTEX.INSTANCE_IN_USE',
    );
  });

  it('a start in one store ends no open session of the instance in another, even for the operator', async () => {
    const i = instance();
    const inA = await start(tok.operator, { instanceId: i, mindType: 'x', store: A });
    await refusedWritingNothing(
      () => as(tok.operator, START, { in: { instanceId: i, mindType: 'x', store: B } }),
      'CORTEX.INSTANCE_IN_USE',
    );
    expect(await stateOf(inA.id)).toMatchObject({ store: A, open: true, cause: null });
    // Within one store a new start still ends the one left open (CRASH).
    const again = await start(tok.unboundA, { instanceId: i, mindType: 'x' });
    expect(again.store).toBe(A);
    expect(await stateOf(inA.id)).toMatchObject({ open: false, cause: 'CRASH' });
    expect(await stateOf(again.id)).toMatchObject({ store: A, open: true });
  });
});

describe('a retried startSession', () => {
  it('with the same id and other arguments is ID_CONFLICT and changes nothing', async () => {
    const i = instance();
    const id = sessionId();
    const first = { id, instanceId: i, mindType: 'x', store: A, task: 't1', project: 'p' };
    const opened = await start(tok.operator, first);
    const before = await nodes();
    for (const changed of [
      { store: B },
      { mindType: 'other-mind' },
      { task: 'completely different task' },
      { task: null },
      { project: 'q' },
      { instanceId: instance() },
    ]) {
      const res = await as(tok.operator, START, { in: { ...first, ...changed } });
      expect(code(res), JSON.stringify(changed)).toBe('CORTEX.ID_CONFLICT');
      expect(JSON.stringify(res.errors)).not.toContain(A);
    }
    // A mind of A reusing the id of its own store's session with other arguments: the same.
    await refusedWritingNothing(
      () => as(tok.unboundA, START, { in: { ...first, store: undefined, mindType: 'y' } }),
      'CORTEX.ID_CONFLICT',
    );
    expect(await nodes()).toBe(before);
    expect(await stateOf(id)).toMatchObject({ store: A, open: true, started: 1 });
    expect((await okAs(tok.operator, `{ session(id: "${id}") { mindType task } }`)).session).toEqual({
      mindType: 'x',
      task: 't1',
    });
    expect(opened.id).toBe(id);
  });

  it('with the same arguments returns the session, also after it moved on or ended', async () => {
    const i = instance();
    const id = sessionId();
    const first = { id, instanceId: i, mindType: 'x', store: A, task: 't1' };
    const opened = await start(tok.operator, first);
    expect(await start(tok.operator, { ...first, task: '  t1 ', project: '' })).toEqual(opened);
    expect(await start(tok.unboundA, { ...first, store: undefined })).toEqual(opened);
    // The task it was started with, not the one it has now, is what a retry repeats.
    await okAs(tok.operator, TRANSITION, { i });
    expect(await start(tok.operator, first)).toMatchObject({ id, task: 'later', mode: 'IDLE', endedAt: null });
    await okAs(tok.operator, 'mutation ($i: String!) { endSession(instanceId: $i) { prompt } }', { i });
    expect(await start(tok.operator, first)).toMatchObject({ id, endCause: 'EXPLICIT' });
    expect(await stateOf(id)).toMatchObject({ open: false, started: 1 });
  });
});
