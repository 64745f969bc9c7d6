import { Button, Card, Checkbox, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMemo, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import type { MessageQuote, MessageView } from '../../../../shared/contract/messaging';
import { parseEmailList } from '../../../../shared/emailAddresses';
import { EMAIL_COPY_KOBO, messageCost, SMS_PAGE_CHARACTERS, SMS_PAGE_KOBO } from '../../../../shared/messagingCost';
import { renderTemplate } from '../../../../shared/messagingTemplate';
import { normalizePhone } from '../../../../shared/phone';
import { asAppError, bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';
import { formatCount, formatNaira } from '../../format';
import { LabeledChoice } from '../LabeledChoice';
import { MessageDetails } from './MessageDetails';
import { withValueAt } from './placeholderValues';
import { ConfirmSend } from './ConfirmSend';
import { SentencesNotice } from './ServiceNotes';
import { SheetMessages } from './SheetMessages';
import { usePhonebooks, useSenderIds, useTemplates } from './useMessagingLists';

type TargetKind = 'number' | 'phonebook' | 'sheet';
type ContentKind = 'text' | 'template';
const TARGET_CHOICES: readonly { value: TargetKind; label: string }[] = [
  { value: 'number', label: 'One phone number' },
  { value: 'phonebook', label: 'A phonebook (bulk)' },
  { value: 'sheet', label: 'A contacts sheet' },
];
const CONTENT_CHOICES: readonly { value: ContentKind; label: string }[] = [
  { value: 'text', label: 'Type the text' },
  { value: 'template', label: 'Use a template' },
];

/** One figure of the estimate before sending: a small label over its value. */
function EstimateFigure({ label, strong = false, testId, children }: { label: string; strong?: boolean; testId?: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 600} data-testid={testId}>
        {children}
      </Text>
    </div>
  );
}

/** A form field whose edits also call `onEdit`; the third item sets it without that (the form's own resets). */
function useFormField<T>(initial: T, onEdit: () => void): [T, (value: SetStateAction<T>) => void, Dispatch<SetStateAction<T>>] {
  const [value, set] = useState<T>(initial);
  const edit = (next: SetStateAction<T>) => {
    onEdit();
    set(next);
  };
  return [value, edit, set];
}

export function SendMessageTab({ onShowStatus }: { onShowStatus: (reference: string) => void }) {
  const senders = useSenderIds();
  const templates = useTemplates();
  const phonebooks = usePhonebooks();

  const [sent, setSent] = useState<MessageView | null>(null);
  // Editing any field starts the next message: the last one's "Sent" card goes (it stays in History).
  const clearSent = () => setSent(null);
  const useField = <T,>(initial: T) => useFormField(initial, clearSent);
  const [targetKind, setTargetKind] = useField<TargetKind>('number');
  const [number, setNumber] = useField('');
  const [phonebookId, setPhonebookId] = useField<string | null>(null);
  const [senderId, setSenderId] = useField<string | null>(null);
  const [contentKind, setContentKind] = useField<ContentKind>('text');
  const [text, setText, resetText] = useField('');
  const [templateId, setTemplateId] = useField<string | null>(null);
  const [values, setValues, resetValues] = useField<string[]>([]);
  const [emailCopy, setEmailCopy] = useField(false);
  const [emailsText, setEmailsText] = useField('');
  const [subject, setSubject] = useField('');
  const [quote, setQuote] = useState<MessageQuote | null>(null);
  const reviewing = useAction();
  const sending = useAction();

  const approvedSenders = (senders.data ?? []).filter((s) => s.approved);
  const effectiveSender = senderId ?? approvedSenders[0]?.senderId ?? null;
  const template = (templates.data ?? []).find((t) => t.id === templateId) ?? null;
  const phonebook = (phonebooks.data ?? []).find((p) => String(p.id) === phonebookId) ?? null;
  const phone = normalizePhone(number);
  const emails = emailCopy ? parseEmailList(emailsText) : { emails: [], invalid: [] };
  const body =
    contentKind === 'text'
      ? text
      : template?.body
        ? renderTemplate(
            template.body,
            template.indexes.map((_, i) => values[i] || `{{${i + 1}}}`),
          )
        : '';
  // null: the service's phonebook list does not say; the review counts them in the phonebook.
  const recipients = targetKind === 'number' ? 1 : (phonebook?.contactCount ?? null);
  const estimate = useMemo(() => messageCost({ text: body, recipients: recipients ?? 0, emails: emails.emails.length }), [body, recipients, emails.emails.length]);

  const problems: string[] = [];
  if (targetKind === 'number' && number.trim() !== '' && !phone.ok) problems.push(`${phone.reason}.`);
  if (targetKind === 'number' && number.trim() === '') problems.push('Enter the phone number that receives the message.');
  if (targetKind === 'phonebook' && !phonebook) problems.push('Choose the phonebook that receives the message.');
  if (targetKind === 'phonebook' && phonebook && phonebook.contactCount === 0)
    problems.push(`The phonebook "${phonebook.name}" has no contacts yet: import some on the Phonebooks tab.`);
  if (!effectiveSender) problems.push('No approved sender ID: a message can only be sent from an approved one (see the Sender IDs tab).');
  if (contentKind === 'text' && text.trim() === '') problems.push('Write the message.');
  if (contentKind === 'template' && !template) problems.push('Choose an approved template.');
  if (contentKind === 'template' && template && template.body === null) problems.push(`The service did not give the text of "${template.name}": type the text instead.`);
  if (contentKind === 'template' && template && template.indexes.some((_, i) => !values[i]?.trim())) problems.push('Fill in a value for every placeholder of the template.');
  if (emailCopy && emails.invalid.length) problems.push(`Not an email address: ${emails.invalid.join(', ')}.`);
  if (emailCopy && emails.emails.length === 0 && emails.invalid.length === 0) problems.push('Enter the email addresses that receive a copy, or untick email copies.');

  const input = () => ({
    target: targetKind === 'number' ? { kind: 'number' as const, to: number } : { kind: 'phonebook' as const, phoneBookId: Number(phonebookId) },
    content:
      contentKind === 'text'
        ? { kind: 'text' as const, text }
        : { kind: 'template' as const, templateId: templateId ?? '', values: template ? template.indexes.map((_, i) => values[i] ?? '') : [] },
    emails: emails.emails,
  });

  const review = () =>
    reviewing.run(async () => {
      sending.setError(null);
      setQuote(await bridge.call('messaging.quote', input()));
    });

  const send = () =>
    sending.run(async () => {
      if (!quote || !effectiveSender) return;
      try {
        setSent(
          await bridge.call('messaging.send', {
            ...input(),
            senderId: effectiveSender,
            confirmedTotalKobo: quote.totalKobo,
            ...(subject.trim() ? { subject: subject.trim() } : {}),
          }),
        );
      } catch (e) {
        // The price changed since the review: the confirmation shows the new one, with the error.
        const err = asAppError(e);
        const details = err.details as { quote?: MessageQuote } | undefined;
        if (err.code === 'cost_changed' && details?.quote) setQuote(details.quote);
        throw err;
      }
      setQuote(null);
      resetText('');
      resetValues([]);
    });

  const senderOptions = (senders.data ?? []).map((s) => ({
    value: s.senderId,
    label: s.approved ? s.senderId : `${s.senderId} — ${s.state}, cannot be used`,
    disabled: !s.approved,
  }));
  const templateOptions = (templates.data ?? []).map((t) => ({ value: t.id, label: t.approved ? t.name : `${t.name} — ${t.state}, cannot be used yet`, disabled: !t.approved }));
  const phonebookOptions = (phonebooks.data ?? []).map((p) => ({
    value: String(p.id),
    label: `${p.name} (${p.contactCount === null ? 'contacts counted on review' : `${formatCount(p.contactCount)} contacts`})`,
  }));

  const senderSelect = (
    <Select
      label="Sender ID"
      description="What recipients see as the sender. Only approved sender IDs can be chosen."
      data={senderOptions}
      value={effectiveSender}
      onChange={setSenderId}
      allowDeselect={false}
    />
  );
  const sendTo = <LabeledChoice label="Send to" value={targetKind} onChange={setTargetKind} data={TARGET_CHOICES} />;

  if (targetKind === 'sheet') {
    return (
      <SheetMessages
        senderId={effectiveSender}
        fields={
          <>
            <ErrorNotice error={senders.error} />
            {sendTo}
            {senderSelect}
          </>
        }
      />
    );
  }

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <Card withBorder padding="lg">
        <Stack gap="md">
          <ErrorNotice error={senders.error ?? templates.error ?? phonebooks.error} />
          {sendTo}
          {targetKind === 'number' ? (
            <TextInput
              label="Phone number"
              placeholder="08031234567"
              value={number}
              onChange={(e) => setNumber(e.currentTarget.value)}
              error={number.trim() !== '' && !phone.ok ? phone.reason : undefined}
              description={phone.ok ? `Will be sent to ${phone.phone}` : '080…, 234… or +234… are all accepted'}
            />
          ) : (
            <Select
              label="Phonebook"
              placeholder="Choose a phonebook"
              data={phonebookOptions}
              value={phonebookId}
              onChange={setPhonebookId}
              searchable
              nothingFoundMessage="No phonebook: create one on the Phonebooks tab"
            />
          )}
          {senderSelect}
          <LabeledChoice label="Message" value={contentKind} onChange={setContentKind} data={CONTENT_CHOICES} />
          {contentKind === 'text' ? (
            <Textarea
              label="Text"
              autosize
              minRows={3}
              maxRows={10}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              description={`${formatCount(estimate.characters)} characters · ${estimate.pages} page${estimate.pages === 1 ? '' : 's'} (${SMS_PAGE_CHARACTERS} characters per page, ${formatNaira(SMS_PAGE_KOBO)} per page per recipient)`}
            />
          ) : (
            <>
              <Select
                label="Template"
                description="Only approved templates can be chosen; new ones are usually approved within minutes."
                placeholder="Choose a template"
                data={templateOptions}
                value={templateId}
                onChange={(v) => {
                  setTemplateId(v);
                  setValues([]);
                }}
                nothingFoundMessage="No templates: create one on the Templates tab"
              />
              {template?.indexes.map((index, i) => (
                <TextInput
                  key={`${template.id}-${index}`}
                  label={`Value for {{${index}}}`}
                  value={values[i] ?? ''}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    setValues((old) => withValueAt(old, i, v));
                  }}
                />
              ))}
            </>
          )}
          <Checkbox label={`Also email a copy (${formatNaira(EMAIL_COPY_KOBO)} per address)`} checked={emailCopy} onChange={(e) => setEmailCopy(e.currentTarget.checked)} />
          {emailCopy && (
            <>
              <TextInput
                label="Email addresses"
                placeholder="finance@company.ng, audit@company.ng"
                value={emailsText}
                onChange={(e) => setEmailsText(e.currentTarget.value)}
                error={emails.invalid.length ? `Not an email address: ${emails.invalid.join(', ')}` : undefined}
                description={emails.emails.length ? `${emails.emails.length} address${emails.emails.length === 1 ? '' : 'es'}` : 'Separate addresses with commas'}
              />
              <TextInput
                label="Email subject"
                placeholder={`Message from ${effectiveSender ?? 'your organisation'}`}
                value={subject}
                onChange={(e) => setSubject(e.currentTarget.value)}
              />
            </>
          )}
        </Stack>
      </Card>

      <Stack gap="lg">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="xs">
            Before you send
          </Title>
          {contentKind === 'template' && template && (
            <Card withBorder padding="sm" mb="sm">
              <Text size="xs" c="dimmed" mb={4}>
                Preview
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="send-preview">
                {body}
              </Text>
            </Card>
          )}
          <Group gap="xl" mb="sm">
            <EstimateFigure label="Recipients">{recipients === null ? 'Counted on review' : formatCount(recipients)}</EstimateFigure>
            <EstimateFigure label="Pages">{estimate.pages}</EstimateFigure>
            <EstimateFigure label="Email copies">{estimate.emails}</EstimateFigure>
            <EstimateFigure label="Estimated cost" strong testId="send-estimate">
              {recipients === null ? 'Shown on review' : formatNaira(estimate.totalKobo)}
            </EstimateFigure>
          </Group>
          {/* Right after a send the form is the sent message's, emptied: nothing is missing until the next message is begun. */}
          <SentencesNotice title="To send, first:" sentences={sent ? [] : problems} mb="sm" />
          {sent && (
            <Text size="sm" c="dimmed" mb="sm" data-testid="send-next">
              Sent (below). Change anything in the form to write the next message.
            </Text>
          )}
          <ErrorNotice error={reviewing.error} title="The message cannot be sent yet" />
          <Group mt="sm">
            <Button onClick={() => void review()} disabled={problems.length > 0} loading={reviewing.busy}>
              Review and send…
            </Button>
          </Group>
        </Card>
        {sent && (
          <Card withBorder padding="lg" data-testid="sent-message">
            <Title order={2} size="h4" mb="xs">
              Sent
            </Title>
            <MessageDetails message={sent} />
            {sent.reference && (
              <Group mt="sm">
                <Button variant="light" onClick={() => onShowStatus(sent.reference ?? '')}>
                  Check its status
                </Button>
              </Group>
            )}
          </Card>
        )}
      </Stack>

      <Modal opened={quote !== null} onClose={() => setQuote(null)} title={<Text fw={700}>Send this message?</Text>} size="lg" centered>
        {quote && effectiveSender && (
          <ConfirmSend quote={quote} senderId={effectiveSender} sending={sending.busy} error={sending.error} onCancel={() => setQuote(null)} onSend={() => void send()} />
        )}
      </Modal>
    </SimpleGrid>
  );
}
