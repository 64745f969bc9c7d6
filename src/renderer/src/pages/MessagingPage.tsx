import { useState } from 'react';
import { HistoryTab } from '../components/messaging/HistoryTab';
import { OneTimeCodesTab } from '../components/messaging/OneTimeCodesTab';
import { PhonebooksTab } from '../components/messaging/PhonebooksTab';
import { SendMessageTab } from '../components/messaging/SendMessageTab';
import { SenderIdsTab } from '../components/messaging/SenderIdsTab';
import { TemplatesTab } from '../components/messaging/TemplatesTab';
import { TabbedPage } from '../components/TabbedPage';

type Tab = 'send' | 'phonebooks' | 'templates' | 'senders' | 'history' | 'otp';

export function MessagingPage() {
  const [tab, setTab] = useState<Tab>('send');
  const [statusReference, setStatusReference] = useState('');
  return (
    <TabbedPage
      title="Messaging"
      description="SMS to numbers and phonebooks, templates, sender IDs and one-time codes. Every send shows its cost first."
      value={tab}
      onChange={setTab}
      listSpacing="lg"
      tabs={[
        {
          value: 'send',
          label: 'Send',
          content: (
            <SendMessageTab
              onShowStatus={(reference) => {
                setStatusReference(reference);
                setTab('history');
              }}
            />
          ),
        },
        { value: 'phonebooks', label: 'Phonebooks', content: <PhonebooksTab /> },
        { value: 'templates', label: 'Templates', content: <TemplatesTab /> },
        { value: 'senders', label: 'Sender IDs', content: <SenderIdsTab /> },
        { value: 'history', label: 'History & status', content: <HistoryTab statusReference={statusReference} /> },
        { value: 'otp', label: 'One-time codes', content: <OneTimeCodesTab /> },
      ]}
    />
  );
}
