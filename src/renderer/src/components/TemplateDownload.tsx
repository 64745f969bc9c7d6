import { Button, Group } from '@mantine/core';
import type { TEMPLATE_KINDS } from '../../../shared/contract/bulk';
import { bridge } from '../bridge';
import { useAction } from '../hooks/useAction';
import { ErrorNotice } from './ErrorNotice';

type TemplateKind = (typeof TEMPLATE_KINDS)[number];

const WORDS: Record<TemplateKind, string> = { airtime: 'airtime', data: 'data', electricity: 'electricity', cable: 'cable TV', contacts: 'contacts' };

/** "Download the template" of a kind of spreadsheet (its columns and two example rows), as Excel or CSV. */
export function TemplateDownload({ kind, justify = 'center' }: { kind: TemplateKind; justify?: 'center' | 'flex-start' }) {
  const { running, error, run } = useAction<'xlsx' | 'csv'>();
  const download = (format: 'xlsx' | 'csv') => run(async () => bridge.download(await bridge.call('bulk.template', { kind, format })), format);
  return (
    <>
      <Group gap="xs" justify={justify} data-testid="template-download">
        <Button size="xs" variant="subtle" loading={running === 'xlsx'} onClick={() => void download('xlsx')}>
          Download the {WORDS[kind]} template (.xlsx)
        </Button>
        <Button size="xs" variant="subtle" loading={running === 'csv'} onClick={() => void download('csv')}>
          .csv
        </Button>
      </Group>
      <ErrorNotice error={error} title="The template could not be written" />
    </>
  );
}
