// fast-check generators shared by the IPC and browser-mode fuzzers: channels (real and made up)
// and payloads that are random, malformed, or one mutation away from valid.
import fc from 'fast-check';
import { CHANNEL_NAMES, type ChannelName } from '../../src/shared/ipc/contract';
import { VALID_INPUTS } from './transport-handlers';

export const realChannel = fc.constantFrom(...CHANNEL_NAMES);
export const anyChannel = fc.oneof(
  realChannel,
  fc.string(),
  fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'profiles', 'profiles.list.x', 'PROFILES.LIST', ''),
);

/** Never an object, so never valid for any channel (every input schema is an object). */
export const nonObject = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.anything()));

/** Values no field of the contract accepts: not null, not a fraction, not an array of fractions. */
const neverValid = fc.constantFrom(null, -1.5, [-1.5]);

/** Channels whose valid sample has fields, so one of them can be broken. */
export const channelWithFields = fc.constantFrom(...CHANNEL_NAMES.filter((c) => Object.keys(VALID_INPUTS[c]).length > 0));

/** The valid payload with one of its fields replaced by a value of a type no field accepts. */
export function brokenField(channel: ChannelName): fc.Arbitrary<Record<string, unknown>> {
  const valid = VALID_INPUTS[channel] as Record<string, unknown>;
  return fc
    .record({ key: fc.constantFrom(...Object.keys(valid)), value: neverValid })
    .map(({ key, value }) => ({ ...valid, [key]: value }));
}

/** The valid payload with one field changed to anything, or one extra key: sometimes still valid. */
export function mutated(channel: ChannelName): fc.Arbitrary<unknown> {
  const valid = VALID_INPUTS[channel] as Record<string, unknown>;
  const keys = Object.keys(valid);
  return fc.oneof(
    fc
      .record({ key: fc.constantFrom(...(keys.length ? keys : ['x'])), value: fc.anything() })
      .map(({ key, value }) => ({ ...valid, [key]: value })),
    fc.record({ key: fc.string(), value: fc.anything() }).map(({ key, value }) => ({ ...valid, [key]: value })),
    fc.anything(),
  );
}

export const channelAndPayload = realChannel.chain((channel) => fc.tuple(fc.constant(channel), mutated(channel)));
