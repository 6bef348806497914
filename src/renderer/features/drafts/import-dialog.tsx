// Import campaign drafts from a CSV file or text pasted from a spreadsheet (TSV). Every row is
// checked first and reported with all its problems; nothing is saved until the person chooses,
// and then all the chosen rows are saved in one transaction or none.
import { useState } from 'react';
import { Dialog } from '../../components/dialog';
import { useAction } from '../../lib/use-action';
import { useDrafts } from '../../stores/drafts-store';
import type { CampaignPayload } from '../../forms/campaign-form';
import type { SeenValues } from '../../forms/campaign-form';
import { readImport, type ImportReport } from './draft-transfer';

export function ImportDialog({
  accountType,
  seen,
  onClose,
}: {
  accountType?: 'ADVERTISER' | 'NETWORK';
  seen?: SeenValues;
  onClose(): void;
}) {
  const [text, setText] = useState('');
  const [report, setReport] = useState<ImportReport | null>(null);
  // The store reports a failed save itself (and returns nothing saved), so no error is shown here.
  const { busy, run } = useAction();

  const check = (t: string) => setReport(t.trim() ? readImport(t, accountType, seen) : null);
  const good = report?.rows.filter((r) => r.payload !== null) ?? [];
  const noted = good.filter((r) => r.notes.length > 0).length;
  const bad = report ? report.rows.length - good.length : 0;
  const save = (payloads: CampaignPayload[]) =>
    run(async () => {
      const saved = await useDrafts.getState().createMany(`import ${payloads.length} draft${payloads.length === 1 ? '' : 's'}`, payloads);
      if (saved.length > 0) onClose();
    });

  return (
    <Dialog title="Import campaign drafts" onClose={onClose} testId="import-dialog">
      <p className="muted">
        Paste rows from a spreadsheet or choose a CSV file. The first line names the columns, by the service&apos;s field name (cpc) or the
        window&apos;s label (CPC). Each row becomes a draft; nothing is posted.
      </p>
      <div className="import-field">
        <label className="form-label" htmlFor="import-file">
          CSV file
        </label>
        <input
          id="import-file"
          type="file"
          accept=".csv,.tsv,text/csv,text/tab-separated-values,text/plain"
          data-testid="import-file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            const t = await file.text();
            setText(t);
            check(t);
          }}
        />
      </div>
      <label className="form-label import-field" htmlFor="import-text">
        Or paste the rows
      </label>
      <textarea
        id="import-text"
        className="import-text"
        rows={6}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          check(e.target.value);
        }}
        data-testid="import-text"
      />
      {report ? (
        <div className="import-report" data-testid="import-report" aria-live="polite">
          <p data-testid="import-summary">
            {report.rows.length} row{report.rows.length === 1 ? '' : 's'}: {good.length} ready
            {noted > 0 ? ` (${noted} with values this app does not know)` : ''}, {bad} with problems.
            {report.ignoredColumns.length > 0 ? ` Columns not used: ${report.ignoredColumns.join(', ')}.` : ''}
          </p>
          {report.fileProblems.map((p) => (
            <p key={p} className="form-problem">
              {p}
            </p>
          ))}
          <ol className="import-rows">
            {report.rows.map((r) => (
              <li key={r.line} className={r.payload ? 'import-ok' : 'import-bad'} data-testid="import-row" data-line={r.line}>
                <strong>
                  Row {r.line}
                  {r.name ? ` (${r.name})` : ''}:
                </strong>{' '}
                {r.payload && r.notes.length > 0 ? (
                  <>
                    ready, but check:
                    <ul className="import-notes" data-testid="import-notes">
                      {r.notes.map((m) => (
                        <li key={m}>{m}</li>
                      ))}
                    </ul>
                  </>
                ) : r.payload ? (
                  'ready'
                ) : (
                  <ul className="import-problems">
                    {r.problems.map((m) => (
                      <li key={m}>{m}</li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        {bad > 0 && good.length > 0 ? (
          <button type="button" disabled={busy} onClick={() => void save(good.map((r) => r.payload!))} data-testid="import-good">
            Import only the {good.length} ready row{good.length === 1 ? '' : 's'}
          </button>
        ) : null}
        <button
          type="button"
          className="primary"
          disabled={busy || !report || good.length === 0 || bad > 0 || report.fileProblems.length > 0}
          onClick={() => void save(good.map((r) => r.payload!))}
          data-testid="import-all"
          title={bad > 0 ? 'Fix the rows with problems first, or import only the ready ones' : undefined}
        >
          Import {good.length} draft{good.length === 1 ? '' : 's'}
        </button>
      </div>
    </Dialog>
  );
}
