// The watch mode's memo of rendered bodies (render/render-memo.ts): a body made of several records
// (a pack of details) is made again exactly when one of its records, or what else it is made of,
// changed; records equal field by field are the same, whatever their objects.

import { describe, expect, it } from 'vitest';
import { RenderMemo } from '../generator/render/render-memo.ts';

describe('a memo of bodies made of several records', () => {
  const records = () => [
    { date: '1660-01-01', title: 'Sunday', topicIds: [1, 2] },
    { date: '1660-01-02', title: 'Monday', topicIds: [] },
  ];

  /** Renders through the memo, counting the renders. */
  function counted() {
    const memo = new RenderMemo();
    let renders = 0;
    const render = (rs: readonly object[], extras: readonly unknown[]): string => {
      memo.begin(['origin']);
      const table = memo.table<string>('packs');
      return table.getOfMany('pack', rs, extras, () => `body ${++renders}`);
    };
    return { render, renders: () => renders };
  }

  it('reuses the body for records equal field by field, and makes it again when one changes', () => {
    const { render, renders } = counted();
    const first = render(records(), [['1660-01-01'], ['1660-01-02']]);
    // New objects, the same fields: reused.
    expect(render(records(), [['1660-01-01'], ['1660-01-02']])).toBe(first);
    expect(renders()).toBe(1);
    // A field of the second record: made again.
    const edited = records();
    (edited[1] as { title: string }).title = 'Monday, edited';
    expect(render(edited, [['1660-01-01'], ['1660-01-02']])).not.toBe(first);
    // An element of an array field.
    const retold = records();
    (retold[0] as { topicIds: number[] }).topicIds = [1, 3];
    render(retold, [['1660-01-01'], ['1660-01-02']]);
    expect(renders()).toBe(3);
  });

  it('makes it again when a record comes or goes, or what else it is made of changes', () => {
    const { render, renders } = counted();
    render(records(), [['1660-01-01'], ['1660-01-02']]);
    render(records().slice(0, 1), [['1660-01-01']]);
    expect(renders()).toBe(2);
    render(records().slice(0, 1), [['1660-01-01', [4]]]);
    expect(renders()).toBe(3);
    render(records().slice(0, 1), [['1660-01-01', [4]]]);
    expect(renders()).toBe(3);
  });

  it('never takes a body made of one record for one made of several under the same key', () => {
    const memo = new RenderMemo();
    memo.begin(['origin']);
    const table = memo.table<string>('mixed');
    const one = records()[0] as object;
    expect(table.get('k', one, [], () => 'one')).toBe('one');
    expect(table.getOfMany('k', [one], [], () => 'many')).toBe('many');
    expect(table.get('k', one, [], () => 'one again')).toBe('one again');
  });
});
