import { Alert, Badge, Button, Card, Group, SimpleGrid, Table, TagsInput, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { analyzeTemplate, renderTemplate, slugify } from '../../../../shared/messagingTemplate';
import { smsPages } from '../../../../shared/messagingCost';
import { bridge } from '../../bridge';
import { ErrorNotice } from '../ErrorNotice';
import { TableHead } from '../TableHead';
import { formatDateTime } from '../../format';
import { useAction } from '../../hooks/useAction';
import { ApprovalBadges } from './ApprovalBadges';
import { NewItemCard } from './NewItemCard';
import { withValueAt } from './placeholderValues';
import { useTemplates } from './useMessagingLists';

function CreateTemplate({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugTouched, setSlugTouched] = useState(false);
  const [useCases, setUseCases] = useState<string[]>([]);
  const [body, setBody] = useState('');
  const [samples, setSamples] = useState<string[]>([]);
  const { busy, error, run } = useAction();

  const analysis = analyzeTemplate(body);
  const effectiveSlug = slugTouched ? slug : slugify(name);
  const preview = renderTemplate(
    body,
    analysis.placeholders.map((n, i) => samples[i] || `[value ${n}]`),
  );
  const canCreate = name.trim() !== '' && analysis.ok;

  const create = () =>
    run(async () => {
      const t = await bridge.call('messaging.templates.create', { name, body, useCases, ...(effectiveSlug ? { slug: effectiveSlug } : {}) });
      notifications.show({ color: 'teal', message: `Template "${t.name}" created. It can be used once it is approved.` });
      setName('');
      setSlug('');
      setSlugTouched(false);
      setBody('');
      setUseCases([]);
      setSamples([]);
      onCreated();
    });

  return (
    <NewItemCard
      thing="template"
      titleSize="h4"
      gap="sm"
      name={name}
      onName={setName}
      namePlaceholder="Salary notice"
      busy={busy}
      error={error}
      canCreate={canCreate}
      onCreate={() => void create()}
      hint={
        !canCreate && (
          <Text size="sm" c="dimmed">
            {!name.trim() ? 'Give it a name.' : !analysis.ok ? 'Correct the text.' : ''}
          </Text>
        )
      }
    >
      <TextInput
        label="Slug"
        description="A short id made from the name; change it if you like."
        value={effectiveSlug}
        onChange={(e) => {
          setSlugTouched(true);
          setSlug(e.currentTarget.value);
        }}
      />
      <TagsInput
        label="Use cases (optional)"
        description="What the messages are for, such as payroll or alerts: sent with the template to the service, which approves each template before it can be used, and shown in the list. Press Enter after each."
        placeholder="payroll"
        value={useCases}
        onChange={setUseCases}
      />
      <Textarea
        label="Text"
        description="Write {{1}}, {{2}}, … where the values go. Number them from 1 with none skipped; they may appear in any order."
        placeholder="Dear {{1}}, your salary of {{2}} was paid today."
        autosize
        minRows={3}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
        error={body.trim() && !analysis.ok ? analysis.problems.map((p) => p.message).join(' ') : undefined}
        data-testid="template-body"
      />
      <Group gap={6} data-testid="template-placeholders">
        <Text size="sm" c="dimmed">
          Placeholders found:
        </Text>
        {analysis.placeholders.length === 0 ? (
          <Text size="sm" c="dimmed">
            none
          </Text>
        ) : (
          analysis.placeholders.map((n) => <Badge key={n} variant="light" color={analysis.ok ? 'teal' : 'red'}>{`{{${n}}}`}</Badge>)
        )}
      </Group>
      {analysis.placeholders.length > 0 && analysis.ok && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {analysis.placeholders.map((n, i) => (
            <TextInput
              key={n}
              size="xs"
              label={`Sample value for {{${n}}}`}
              value={samples[i] ?? ''}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setSamples((old) => withValueAt(old, i, v));
              }}
            />
          ))}
        </SimpleGrid>
      )}
      {body.trim() && (
        <Card withBorder padding="sm">
          <Text size="xs" c="dimmed" mb={4}>
            Preview · {smsPages(preview)} SMS page{smsPages(preview) === 1 ? '' : 's'} with these values
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="template-preview">
            {preview}
          </Text>
        </Card>
      )}
    </NewItemCard>
  );
}

export function TemplatesTab() {
  const templates = useTemplates();
  const list = templates.data ?? [];
  const waiting = list.some((t) => t.state === 'PENDING');
  const { reload } = templates;
  // New templates wait for approval: look again every 15 s while any is pending.
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => void reload(), 15_000);
    return () => window.clearInterval(timer);
  }, [waiting, reload]);

  return (
    <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="lg">
      <Card withBorder padding="lg">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4">
            Templates
          </Title>
          <Button size="xs" variant="default" onClick={() => void reload()} loading={templates.loading}>
            Refresh
          </Button>
        </Group>
        <ErrorNotice error={templates.error} onRetry={() => void reload()} />
        {waiting && (
          <Alert color="yellow" variant="light" mb="sm">
            Templates marked PENDING are waiting for the service to approve them; they cannot be used to send until then.
          </Alert>
        )}
        {list.length === 0 && !templates.loading ? (
          <Text c="dimmed" size="sm">
            No templates yet. A template is a message with blanks ({'{{1}}'}, {'{{2}}'}, …) you fill in when sending.
          </Text>
        ) : (
          <Table verticalSpacing="xs" data-testid="templates-table">
            <TableHead columns={['Template', 'Approval', 'Created']} />
            <Table.Tbody>
              {list.map((t) => (
                <Table.Tr key={t.id} data-testid={`template-row-${t.slug || slugify(t.name)}`}>
                  <Table.Td>
                    <Text fw={500}>{t.name}</Text>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={t.body === null ? 'dimmed' : undefined}>
                      {t.body ?? 'The service did not give the text of this template.'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t.indexes.length} value{t.indexes.length === 1 ? '' : 's'} · {t.useCases.join(', ') || 'no use case'} · id {t.id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <ApprovalBadges approval={t.approval} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDateTime(t.createdAt)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <CreateTemplate onCreated={() => void reload()} />
    </SimpleGrid>
  );
}
