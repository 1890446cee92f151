import { assign, createActor, emit, enqueueActions, setup } from 'xstate';
const N = 200000;
function run(name: string, machine: any) {
  const a = createActor(machine); a.on('*', () => {}); a.start();
  for (let i = 0; i < 20000; i++) a.send({ type: 'MOVE' });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) a.send({ type: 'MOVE' });
  console.log(name, ((performance.now() - t0) * 1000 / N).toFixed(2), 'us/event');
  a.stop();
}
const m1 = setup({ types: {} as { context: { n: number } } }).createMachine({ context: { n: 0 }, on: { MOVE: { actions: [assign({ n: ({ context }) => context.n + 1 }), emit({ type: 'moved' })] } } });
run('assign+emit', m1);
const m2 = setup({ types: {} as { context: { n: number } } }).createMachine({ context: { n: 0 }, initial: 'a', states: { a: { after: { 1000000: 'a' }, on: { MOVE: { target: 'a', reenter: true, actions: [assign({ n: ({ context }) => context.n + 1 }), emit({ type: 'moved' })] } } } } });
run('reenter+after', m2);
const m3 = setup({ types: {} as { context: { n: number } } }).createMachine({ context: { n: 0 }, initial: 'a', always: { guard: ({ context }) => context.n < 0, target: '.a' }, states: { a: { after: { 1000000: 'a' }, on: { MOVE: { target: 'a', reenter: true, actions: enqueueActions(({ enqueue, context }) => { enqueue.assign({ n: context.n + 1 }); enqueue.emit({ type: 'moved' }); }) } } } } });
run('reenter+after+always+enqueue', m3);
const m4 = setup({ types: {} as { context: { n: number } } }).createMachine({ context: { n: 0 }, initial: 'a', states: { a: { after: { 1000000: 'a' }, on: { MOVE: { target: 'a', reenter: true, actions: enqueueActions(({ enqueue, context }) => { enqueue.assign({ n: context.n + 1 }); enqueue.emit({ type: 'moved' }); }) } } } } });
run('reenter+after+enqueue', m4);
const m5 = setup({ types: {} as { context: { n: number } } }).createMachine({ context: { n: 0 }, initial: 'a', always: { guard: ({ context }) => context.n < 0, target: '.a' }, states: { a: { after: { 1000000: 'a' }, on: { MOVE: { target: 'a', reenter: true, actions: [assign({ n: ({ context }) => context.n + 1 }), emit({ type: 'moved' })] } } } } });
run('reenter+after+always', m5);
const m6 = setup({ types: {} as { context: { n: number } } }).createMachine({ context: { n: 0 }, initial: 'a', states: { a: { on: { MOVE: { actions: assign(({ context }) => ({ n: context.n + 1 })) } } } } });
run('assign only', m6);
