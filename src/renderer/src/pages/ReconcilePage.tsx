import { NotInThisBuild } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

export function ReconcilePage() {
  return (
    <>
      <PageHeader title="Reconcile" description="Compare a vendor export with local records and explain the wallet" />
      <NotInThisBuild what="Reconciliation arrives with the reconciliation release." />
    </>
  );
}
