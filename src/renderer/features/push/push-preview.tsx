// How the notification will look: a desktop toast and a phone's lock-screen card. Images appear
// only over https, as a subscriber's browser would show them.
import { useState } from 'react';
import { previewImage, type PushForm } from './push-form';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'your-site.example';
  }
}

export function PushPreview({ form }: { form: PushForm }) {
  // An address that does not load (or that the window's policy refuses) shows no broken image.
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const usable = (url: string) => {
    const u = previewImage(url);
    return u && !broken.has(u) ? u : null;
  };
  const onError = (url: string | null) => () => url && setBroken(new Set([...broken, url]));
  const icon = usable(form.icon);
  const thumb = usable(form.thumbnailUrl);
  const title = form.title || 'Notification title';
  const body = form.itemDescription || form.url || 'The text under the title';
  return (
    <div className="preview" aria-label="Preview" data-testid="push-preview">
      <div className="preview-label muted">Desktop</div>
      <div className="preview-desktop">
        {icon ? <img className="preview-icon" src={icon} alt="" data-testid="preview-icon" onError={onError(icon)} /> : <span className="preview-icon preview-blank" />}
        <div className="preview-text">
          <div className="preview-title" data-testid="preview-title">{title}</div>
          <div className="preview-body">{body}</div>
          <div className="preview-host muted">{hostOf(form.url)}</div>
        </div>
        {thumb ? <img className="preview-thumb" src={thumb} alt="" data-testid="preview-thumb" onError={onError(thumb)} /> : null}
      </div>
      <div className="preview-label muted">Mobile</div>
      <div className="preview-mobile">
        <div className="preview-mobile-head muted">
          {icon ? <img className="preview-icon-small" src={icon} alt="" onError={onError(icon)} /> : null} {hostOf(form.url)} · now
        </div>
        <div className="preview-title">{title.length > 60 ? `${title.slice(0, 59)}\u2026` : title}</div>
        <div className="preview-body">{body}</div>
        {thumb ? <img className="preview-mobile-image" src={thumb} alt="" onError={onError(thumb)} /> : null}
      </div>
      {(form.icon && !icon) || (form.thumbnailUrl && !thumb) ? <p className="muted preview-note">Images are shown only for https addresses that load.</p> : null}
    </div>
  );
}
