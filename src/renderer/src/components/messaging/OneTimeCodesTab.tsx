import { Alert, Button, Card, Checkbox, Group, NumberInput, RingProgress, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { OtpConfirmedView, OtpSentView } from '../../../../shared/contract/messaging';
import { parseEmailList } from '../../../../shared/emailAddresses';
import { EMAIL_COPY_KOBO, otpCostEstimate } from '../../../../shared/messagingCost';
import { normalizePhone } from '../../../../shared/phone';
import { bridge } from '../../bridge';
import { useAction } from '../../hooks/useAction';
import { ErrorNotice } from '../ErrorNotice';
import { SandboxOutbox } from './SandboxOutbox';
import { ServiceNotes } from './ServiceNotes';
import { formatNaira } from '../../format';
import { useSenderIds } from './useMessagingLists';

function formatLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

/** Counts down from when the code was sent (this computer's clock), so it never jumps. */
function Countdown({ seconds, receivedAt }: { seconds: number; receivedAt: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const left = receivedAt + seconds * 1000 - now;
  const expired = left <= 0;
  return (
    <Group gap="sm">
      <RingProgress size={64} thickness={6} roundCaps sections={[{ value: expired ? 0 : (left / (seconds * 1000)) * 100, color: left < 15_000 ? 'red' : 'teal' }]} />
      <div>
        <Text size="xs" c="dimmed">
          {expired ? 'Expired' : 'Expires in'}
        </Text>
        <Text fw={700} fz="xl" data-testid="otp-countdown">
          {expired ? 'Send a new code' : formatLeft(left)}
        </Text>
      </div>
    </Group>
  );
}

export function OneTimeCodesTab() {
  const senders = useSenderIds();
  const approved = (senders.data ?? []).filter((s) => s.approved);
  const [receiver, setReceiver] = useState('');
  const [senderId, setSenderId] = useState<string | null>(null);
  const [digits, setDigits] = useState<number | string>(6);
  const [seconds, setSeconds] = useState<number | string>(300);
  const [emailCopy, setEmailCopy] = useState(false);
  const [emailsText, setEmailsText] = useState('');
  const [sent, setSent] = useState<(OtpSentView & { receivedAt: number }) | null>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<OtpConfirmedView | null>(null);
  const sending = useAction();
  const confirming = useAction();

  const sender = senderId ?? approved[0]?.senderId ?? null;
  const phone = normalizePhone(receiver);
  const emails = emailCopy ? parseEmailList(emailsText) : { emails: [], invalid: [] };
  const d = typeof digits === 'number' ? digits : Number(digits);
  const s = typeof seconds === 'number' ? seconds : Number(seconds);
  const digitsOk = Number.isInteger(d) && d >= 6 && d <= 100;
  const secondsOk = Number.isInteger(s) && s >= 30 && s <= 86_400;
  const canSend = phone.ok && sender !== null && digitsOk && secondsOk && emails.invalid.length === 0 && (!emailCopy || emails.emails.length > 0);

  const send = () =>
    sending.run(async () => {
      if (!sender) return;
      const r = await bridge.call('messaging.otp.send', { receiverNumber: receiver, senderId: sender, numberOfDigits: d, seconds: s, emails: emails.emails });
      setSent({ ...r, receivedAt: Date.now() });
      setCode('');
      setOutcome(null);
      confirming.setError(null);
    });

  const confirm = async () => {
    if (!sent?.reference) return;
    const reference = sent.reference;
    setOutcome(null);
    await confirming.run(async () => setOutcome(await bridge.call('messaging.otp.confirm', { reference, code })));
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" maw={1100}>
      <Card withBorder padding="lg">
        <Title order={2} size="h4">
          Send a code
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          A one-time code proves a person holds a phone number: send it, ask them to read it back, and confirm it here.
        </Text>
        <Stack gap="sm">
          <TextInput
            label="Phone number"
            placeholder="08031234567"
            value={receiver}
            onChange={(e) => setReceiver(e.currentTarget.value)}
            error={receiver.trim() && !phone.ok ? phone.reason : undefined}
          />
          <Select
            label="Sender ID"
            data={(senders.data ?? []).map((x) => ({ value: x.senderId, label: x.approved ? x.senderId : `${x.senderId} — ${x.state}, cannot be used`, disabled: !x.approved }))}
            value={sender}
            onChange={setSenderId}
            allowDeselect={false}
          />
          <Group grow>
            <NumberInput label="Digits" min={6} max={100} value={digits} onChange={setDigits} error={digitsOk ? undefined : 'From 6 to 100 digits'} />
            <NumberInput
              label="Valid for (seconds)"
              min={30}
              max={86_400}
              step={30}
              value={seconds}
              onChange={setSeconds}
              error={secondsOk ? undefined : 'From 30 to 86,400 seconds'}
            />
          </Group>
          <Checkbox label={`Also email the code (${formatNaira(EMAIL_COPY_KOBO)} per address)`} checked={emailCopy} onChange={(e) => setEmailCopy(e.currentTarget.checked)} />
          {emailCopy && (
            <TextInput
              label="Email addresses"
              value={emailsText}
              onChange={(e) => setEmailsText(e.currentTarget.value)}
              error={emails.invalid.length ? `Not an email address: ${emails.invalid.join(', ')}` : undefined}
            />
          )}
          <Text size="sm" c="dimmed">
            Cost: about {formatNaira(otpCostEstimate(digitsOk ? d : 6, emails.emails.length).totalKobo)} ({otpCostEstimate(digitsOk ? d : 6, 0).pages} SMS page
            {emails.emails.length ? ` + ${emails.emails.length} email cop${emails.emails.length === 1 ? 'y' : 'ies'}` : ''}); the service reports the exact cost after sending.
          </Text>
          <ErrorNotice error={senders.error ?? sending.error} title="The code was not sent" />
          <Group>
            <Button onClick={() => void send()} disabled={!canSend} loading={sending.busy}>
              Send code
            </Button>
          </Group>
        </Stack>
      </Card>

      <Card withBorder padding="lg">
        <Title order={2} size="h4" mb="sm">
          Confirm the code
        </Title>
        {!sent ? (
          <Text c="dimmed" size="sm">
            Send a code first; then enter the digits the recipient reads back to you.
          </Text>
        ) : (
          <Stack gap="sm" data-testid="otp-confirm">
            <Text size="sm">
              Code sent to <b>{sent.receiverNumber}</b> ({sent.numberOfDigits} digits) · cost {formatNaira(sent.costKobo)}
              {sent.costSource === 'quoted' ? ' (as quoted)' : ''}
            </Text>
            <Text size="sm">
              Reference:{' '}
              <Text span ff="monospace" data-testid="otp-reference">
                {sent.reference ?? 'not given by the service'}
              </Text>
            </Text>
            <ServiceNotes notes={sent.notes} />
            <Countdown key={sent.reference} seconds={sent.seconds} receivedAt={sent.receivedAt} />
            <Group align="flex-end">
              <TextInput
                label="Code"
                placeholder={'0'.repeat(Math.min(sent.numberOfDigits, 12))}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.replace(/\s/g, ''))}
                w={260}
                inputMode="numeric"
                onKeyDown={(e) => e.key === 'Enter' && code && void confirm()}
              />
              <Button onClick={() => void confirm()} disabled={!/^\d+$/.test(code) || !sent.reference} loading={confirming.busy}>
                Confirm
              </Button>
            </Group>
            {outcome && (
              <Alert color="teal" variant="filled" title="Confirmed" data-testid="otp-outcome">
                The code is correct: {sent.receiverNumber} is confirmed.
              </Alert>
            )}
            <ErrorNotice error={confirming.error} title="Not confirmed" testId="otp-outcome" />
          </Stack>
        )}
      </Card>
      <div style={{ gridColumn: '1 / -1' }}>
        <SandboxOutbox />
      </div>
    </SimpleGrid>
  );
}
