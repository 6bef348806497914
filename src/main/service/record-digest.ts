// The digest of one listed record's raw bytes, exactly as the service wrote them (issue #29): a
// refresh of a cached account skips parsing, normalising and writing a record whose bytes are those
// of a cached row (same digest), since the same bytes make the same row. Correctness never rests
// on a digest matching: bytes written differently (another key order, spacing, a changed field)
// give another digest and the record is parsed and compared as before.
//
// SHA-256 rather than a faster non-cryptographic hash: two different records with one digest would
// leave a row stale, and the listing is the service's text, not ours. One-shot crypto.hash cost
// ~100 ms for 100,000 half-kilobyte records (createHash objects ~115 ms).
// The digests travel beside the campaigns (StreamedListing.digests, index for index) to the cache,
// which stores each with its row: never on the campaign objects, so a copy of one made and
// changed elsewhere cannot carry the digest of bytes it no longer matches.
import { hash } from 'node:crypto';

export const recordDigest = (bytes: Uint8Array): string => hash('sha256', bytes, 'base64');
