import { NotInThisBuild } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

export function TransactionsPage() {
  return (
    <>
      <PageHeader title="Transactions" description="The vending log, mirrored on this computer" />
      <NotInThisBuild what="The mirrored vending log arrives with the log mirror release." />
    </>
  );
}
