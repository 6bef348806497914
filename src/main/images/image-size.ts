// The format and pixel size of an image from its first bytes, without decoding it. Only the
// formats a push may carry (4.6 note 7: JPEG, PNG, WebP) and GIF are read; anything else is
// "other" with no size, which is itself worth a hint.

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'other';

export interface ImageFacts {
  format: ImageFormat;
  width: number | null;
  height: number | null;
}

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

function png(b: Buffer): ImageFacts | null {
  if (b.length < 24 || b[0] !== 0x89 || ascii(b, 1, 4) !== 'PNG') return null;
  // The IHDR chunk comes first: width and height as big-endian 32-bit numbers.
  return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gif(b: Buffer): ImageFacts | null {
  if (b.length < 10 || ascii(b, 0, 3) !== 'GIF') return null;
  return { format: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function jpeg(b: Buffer): ImageFacts | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  // Walk the segments to the first start-of-frame (SOF0..SOF15 but DHT, JPG and DAC).
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) {
      i += 1;
      continue;
    }
    const marker = b[i + 1];
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: 'jpeg', width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    }
    i += 2 + len;
  }
  return { format: 'jpeg', width: null, height: null };
}

function webp(b: Buffer): ImageFacts | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 12) !== 'WEBP') return null;
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8 ') return { format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { format: 'webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return { format: 'webp', width: null, height: null };
}

export function imageFacts(bytes: Buffer): ImageFacts {
  return png(bytes) ?? jpeg(bytes) ?? webp(bytes) ?? gif(bytes) ?? { format: 'other', width: null, height: null };
}

export const MIME_OF: Record<Exclude<ImageFormat, 'other'>, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};
