// How the notification will look: a desktop toast and a phone's lock-screen card. Images appear
// only over https, as a subscriber's browser would show them, and only as the main process
// fetched and checked them (a data: URL): the window never loads a typed third-party address.
import type { ImageRole } from '../../../shared/domain/push';
import { usePush } from '../../stores/push-store';
import { previewImage, type PushForm } from '../../forms/push-form';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'your-site.example';
  }
}

export function PushPreview({ form }: { form: PushForm }) {
  const images = usePush((s) => s.images);
  const usable = (url: string, role: ImageRole): string | null => {
    const u = previewImage(url.trim());
    const check = u ? images[`${role}:${u}`] : undefined;
    return check && check !== 'checking' ? check.dataUrl : null;
  };
  const icon = usable(form.icon, 'icon');
  const thumb = usable(form.thumbnailUrl, 'thumbnail');
  const title = form.title || 'Notification title';
  const body = form.itemDescription || form.url || 'The text under the title';
  return (
    <div className="preview" aria-label="Preview" data-testid="push-preview">
      <div className="preview-label muted">Desktop</div>
      <div className="preview-desktop">
        {icon ? (
          <img className="preview-icon" src={icon} alt="" data-testid="preview-icon" />
        ) : (
          <span className="preview-icon preview-blank" />
        )}
        <div className="preview-text">
          <div className="preview-title" data-testid="preview-title">
            {title}
          </div>
          <div className="preview-body">{body}</div>
          <div className="preview-host muted">{hostOf(form.url)}</div>
        </div>
        {thumb ? <img className="preview-thumb" src={thumb} alt="" data-testid="preview-thumb" /> : null}
      </div>
      <div className="preview-label muted">Mobile</div>
      <div className="preview-mobile">
        <div className="preview-mobile-head muted">
          {icon ? <img className="preview-icon-small" src={icon} alt="" /> : null} {hostOf(form.url)} · now
        </div>
        <div className="preview-title">{title.length > 60 ? `${title.slice(0, 59)}\u2026` : title}</div>
        <div className="preview-body">{body}</div>
        {thumb ? <img className="preview-mobile-image" src={thumb} alt="" /> : null}
      </div>
      {(form.icon && !icon) || (form.thumbnailUrl && !thumb) ? (
        <p className="muted preview-note">Images are shown only for https addresses that the app could fetch and check.</p>
      ) : null}
    </div>
  );
}
