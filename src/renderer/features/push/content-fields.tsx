// What a push says, the same in the composer and in a scheduled task's editor: the title with its
// length counter, the description with its count, the thumbnail and the icon with their image
// checks. Between the title and the description each places its own URL row (the editor cannot
// change it). The length advice is the shared rule's (shared/domain/push).
import type { InputHTMLAttributes, ReactNode } from 'react';
import { descriptionLengthHint, MAX_TITLE_LENGTH, titleLengthHint } from '../../../shared/domain/push';
import { FormField } from '../../components/form-field';
import { ImageHints } from './image-field';

export interface PushContent {
  title: string;
  itemDescription: string;
  thumbnailUrl: string;
  icon: string;
}

const withHint = (text: string, hint: string | null) => (hint ? `${text} · ${hint}` : text);

export function PushContentFields({
  value,
  onEdit,
  problems,
  prefix,
  inputTestPrefix,
  urlRow,
  placeholders,
  onLeave,
}: {
  value: PushContent;
  onEdit(patch: Partial<PushContent>): void;
  problems: Partial<Record<string, string[]>>;
  /** Before field names, input ids and hint test ids ('' in the composer, 'task-' in the editor). */
  prefix: string;
  /** The inputs' test ids are `${inputTestPrefix}-${field}`. */
  inputTestPrefix: string;
  urlRow: ReactNode;
  /** Example text in the image address fields. */
  placeholders: boolean;
  /** A field was left (blurred), by the rules' name for it: the composer shows its problems from then on. */
  onLeave?(field: keyof PushContent): void;
}) {
  const input = (field: 'title' | 'thumbnailUrl' | 'icon', props: InputHTMLAttributes<HTMLInputElement>) => (
    <input
      id={`f-${prefix}${field}`}
      value={value[field]}
      onChange={(e) => onEdit({ [field]: e.target.value })}
      onBlur={() => onLeave?.(field)}
      aria-invalid={problems[field] ? true : undefined}
      data-testid={`${inputTestPrefix}-${field}`}
      {...props}
    />
  );
  return (
    <>
      <FormField
        label="Title"
        name={`${prefix}title`}
        problems={problems.title}
        hint={
          <span data-testid={`${prefix}title-counter`}>
            {withHint(`${value.title.length}/${MAX_TITLE_LENGTH}`, titleLengthHint(value.title))}
          </span>
        }
      >
        {input('title', { maxLength: MAX_TITLE_LENGTH + 20 })}
      </FormField>
      {urlRow}
      <FormField
        label="Description"
        name={`${prefix}itemDescription`}
        problems={problems.itemDescription}
        hint={
          <span data-testid={`${prefix}description-hint`}>
            {withHint(`${value.itemDescription.length} characters`, descriptionLengthHint(value.itemDescription))}
          </span>
        }
      >
        <textarea
          id={`f-${prefix}itemDescription`}
          rows={2}
          value={value.itemDescription}
          onChange={(e) => onEdit({ itemDescription: e.target.value })}
          onBlur={() => onLeave?.('itemDescription')}
          data-testid={`${inputTestPrefix}-itemDescription`}
        />
      </FormField>
      <FormField
        label="Thumbnail URL"
        name={`${prefix}thumbnailUrl`}
        problems={problems.thumbnailUrl}
        hint={<ImageHints url={value.thumbnailUrl} role="thumbnail" testId={`${prefix}thumbnail-hints`} />}
      >
        {input('thumbnailUrl', { type: 'url', ...(placeholders ? { placeholder: 'https://  (at least 300x200, under 200 KB)' } : {}) })}
      </FormField>
      <FormField
        label="Icon URL"
        name={`${prefix}icon`}
        problems={problems.icon}
        hint={<ImageHints url={value.icon} role="icon" testId={`${prefix}icon-hints`} />}
      >
        {input('icon', { type: 'url', ...(placeholders ? { placeholder: 'https://  (192x192, square)' } : {}) })}
      </FormField>
    </>
  );
}
