import { NotInThisBuild } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

export function MessagingPage() {
  return (
    <>
      <PageHeader title="Messaging" description="SMS to numbers and phonebooks, templates and one-time codes" />
      <NotInThisBuild what="Messaging arrives with the messaging release." />
    </>
  );
}
