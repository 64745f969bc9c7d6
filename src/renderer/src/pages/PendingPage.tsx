import { NotInThisBuild } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

export function PendingPage() {
  return (
    <>
      <PageHeader title="Pending" description="Purchases waiting for a final answer from the service" />
      <NotInThisBuild what="Tracking of pending purchases and requery arrives with the bulk purchases release." />
    </>
  );
}
