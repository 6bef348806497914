// An image address with the recommendations of 4.6 note 7 beside it. The address is checked by
// the main process (images.check) a moment after the person stops typing it; the window itself
// never loads it. An address the person did not type (a task's own images, from the service) is
// fetched only when they ask (Check image): nothing the service sends makes the app fetch by itself.
import { useEffect, useRef } from 'react';
import { imageHints, type ImageRole } from '../../../shared/domain/push';
import type { ImageCheck } from '../../../shared/ipc/contract';
import { usePush } from '../../stores/push-store';

const CHECK_DELAY_MS = 600;

const checkable = (url: string) => /^https?:\/\/[^/]/i.test(url.trim());

/** The check of `url`; started by itself only once the address differs from the one shown first. */
export function useImageCheck(url: string, role: ImageRole): ImageCheck | 'checking' | null {
  const check = usePush((s) => s.images[`${role}:${url}`]);
  const first = useRef(url);
  useEffect(() => {
    if (url === first.current || !checkable(url)) return;
    const t = setTimeout(() => void usePush.getState().checkImage(url.trim(), role), CHECK_DELAY_MS);
    return () => clearTimeout(t);
  }, [url, role]);
  return check ?? null;
}

function facts(c: ImageCheck): string {
  const parts = [
    c.format?.toUpperCase(),
    c.width != null && c.height != null ? `${c.width}x${c.height}` : null,
    c.bytes != null ? `${Math.ceil(c.bytes / 1024)} KB` : null,
  ];
  return parts.filter(Boolean).join(', ');
}

/** The hint line under an image address: what the check found and what it misses. */
export function ImageHints({ url, role, testId }: { url: string; role: ImageRole; testId: string }) {
  const check = useImageCheck(url.trim(), role);
  if (url.trim() === '') return null;
  const hints = check && check !== 'checking' ? check.hints : imageHints({ url }, role);
  return (
    <span data-testid={testId}>
      {check === null && checkable(url) ? (
        <button
          type="button"
          className="link-button"
          data-testid={`${testId}-check`}
          onClick={() => void usePush.getState().checkImage(url.trim(), role)}
        >
          Check image
        </button>
      ) : null}{' '}
      {check === 'checking' ? <span>Checking the image... </span> : null}
      {check && check !== 'checking' ? (
        check.error ? (
          <span className="hint-warn">{check.error}. </span>
        ) : (
          <span>Checked: {facts(check)}. </span>
        )
      ) : null}
      {hints.map((h) => (
        <span key={h} className="hint-warn" data-testid={`${testId}-hint`}>
          {h}.{' '}
        </span>
      ))}
      {check && check !== 'checking' && !check.error && hints.length === 0 ? <span>Meets the recommendations.</span> : null}
    </span>
  );
}
