// The handlers of one IPC namespace: a handler file per namespace (`handlers/<namespace>.ts`)
// returns exactly these, so the type check refuses a file that serves another namespace's channel
// or leaves one of its own out.
import type { DeskHandlers } from '../../shared/ipc/contract';

export type HandlersOf<N extends string> = Pick<DeskHandlers, Extract<keyof DeskHandlers, `${N}.${string}`>>;
