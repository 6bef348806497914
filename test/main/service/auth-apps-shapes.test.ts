// The authorized applications (spec 2.7, "map of application ID to publisher name") in every shape
// a service may give them: as the text shows, with a publisher not known (null), and, beyond the
// text, wrapped under a key or as a list of records with numeric ids. The client reads the same
// applications from each; before, anything but the plain map of strings left the push composer
// without applications ("could not be read").
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../src/main/service/service-client';
import type { RunningSandbox, Variants } from '../../../src/sandbox/index';
import { playVariants } from '../../helpers/sandbox';
import { clientPerFile } from '../../helpers/service-client';

let sb: RunningSandbox;
let client: ServiceClient;

clientPerFile((s, c) => {
  sb = s;
  client = c;
});

const play = (shape: Variants['auth_apps_shape']) => playVariants(sb, shape ? { auth_apps_shape: shape } : {});

describe('authorized applications', () => {
  it.each(['wrapped', 'list'] as const)('are read the same when the service answers them %s', async (shape) => {
    await play(undefined);
    const plain = await client.authApps();
    expect(Object.keys(plain).length).toBeGreaterThan(0);
    await play(shape);
    expect(await client.authApps()).toEqual(plain);
  });

  it('keep an application whose publisher the service does not know (null), with no name', async () => {
    await play(undefined);
    const plain = await client.authApps();
    await play('null_publisher');
    const read = await client.authApps();
    expect(Object.keys(read)).toEqual(Object.keys(plain));
    const ids = Object.keys(plain);
    expect(read[ids[0]]).toBe(plain[ids[0]]);
    if (ids.length > 1) expect(read[ids[1]]).toBe('');
  });
});
