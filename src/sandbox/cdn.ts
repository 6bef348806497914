// The image CDN stand-in: every rewritten thumbnail or icon address answers with a 1x1 PNG so
// previews in the desk render instead of showing broken images.
import { crc32, deflateSync } from 'node:zlib';
import type { Reply } from './http';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function onePixelPng(rgba: readonly [number, number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, ...rgba]))), // filter byte 0, then the pixel
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const PIXEL_PNG = onePixelPng([0xd0, 0xd4, 0xdc, 0xff]);

export function cdnReply(): Reply {
  return { status: 200, headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' }, body: PIXEL_PNG };
}
