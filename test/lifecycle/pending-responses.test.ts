import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { PendingResponses } from '../../src/lifecycle/pending-responses';

const response = (): ServerResponse => new ServerResponse(new IncomingMessage(new Socket()));

const sorted = (responses: readonly ServerResponse[], all: readonly ServerResponse[]): number[] =>
  responses.map((res) => all.indexOf(res)).sort((a, b) => a - b);

test('holds what was added and not yet deleted, deleted in any order', () => {
  const all = Array.from({ length: 6 }, response);
  const pending = new PendingResponses();
  for (const res of all) pending.add(res);
  expect(pending.size).toBe(6);

  // The last, a middle one (the last takes its place), the first, then the one that moved.
  for (const [index, left] of [
    [5, [0, 1, 2, 3, 4]],
    [2, [0, 1, 3, 4]],
    [0, [1, 3, 4]],
    [4, [1, 3]],
  ] as const) {
    pending.delete(all[index] as ServerResponse);
    expect(sorted(pending.list(), all)).toEqual(left);
    expect(pending.size).toBe(left.length);
  }

  pending.add(all[0] as ServerResponse);
  expect(sorted(pending.list(), all)).toEqual([0, 1, 3]);
});

test('a response deleted twice, or never added, changes nothing', () => {
  const [first, second, third, stranger] = Array.from({ length: 4 }, response) as [
    ServerResponse,
    ServerResponse,
    ServerResponse,
    ServerResponse,
  ];
  const pending = new PendingResponses();
  pending.add(first);
  pending.add(second);
  pending.add(third);
  pending.delete(first);
  // `third` has taken the slot `first` had: deleting `first` again must not take `third` out.
  pending.delete(first);
  pending.delete(stranger);
  expect(new Set(pending.list())).toEqual(new Set([second, third]));
});

test('its list is a copy: responses deleted while it is walked are all still walked', () => {
  const all = Array.from({ length: 3 }, response);
  const pending = new PendingResponses();
  for (const res of all) pending.add(res);
  const walked: ServerResponse[] = [];
  for (const res of pending.list()) {
    walked.push(res);
    pending.delete(res);
  }
  expect(walked).toHaveLength(3);
  expect(pending.size).toBe(0);
});
