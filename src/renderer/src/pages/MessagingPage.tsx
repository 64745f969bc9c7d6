import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { HistoryTab } from '../components/messaging/HistoryTab';
import { OneTimeCodesTab } from '../components/messaging/OneTimeCodesTab';
import { PageHeader } from '../components/PageHeader';
import { PhonebooksTab } from '../components/messaging/PhonebooksTab';
import { SendMessageTab } from '../components/messaging/SendMessageTab';
import { SenderIdsTab } from '../components/messaging/SenderIdsTab';
import { TemplatesTab } from '../components/messaging/TemplatesTab';

type Tab = 'send' | 'phonebooks' | 'templates' | 'senders' | 'history' | 'otp';

export function MessagingPage() {
  const [tab, setTab] = useState<Tab>('send');
  const [statusReference, setStatusReference] = useState('');
  return (
    <>
      <PageHeader title="Messaging" description="SMS to numbers and phonebooks, templates, sender IDs and one-time codes. Every send shows its cost first." />
      <Tabs value={tab} onChange={(v) => setTab((v as Tab | null) ?? 'send')} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="send">Send</Tabs.Tab>
          <Tabs.Tab value="phonebooks">Phonebooks</Tabs.Tab>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          <Tabs.Tab value="senders">Sender IDs</Tabs.Tab>
          <Tabs.Tab value="history">History & status</Tabs.Tab>
          <Tabs.Tab value="otp">One-time codes</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="send">
          <SendMessageTab
            onShowStatus={(reference) => {
              setStatusReference(reference);
              setTab('history');
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="phonebooks">
          <PhonebooksTab />
        </Tabs.Panel>
        <Tabs.Panel value="templates">
          <TemplatesTab />
        </Tabs.Panel>
        <Tabs.Panel value="senders">
          <SenderIdsTab />
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <HistoryTab statusReference={statusReference} />
        </Tabs.Panel>
        <Tabs.Panel value="otp">
          <OneTimeCodesTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
