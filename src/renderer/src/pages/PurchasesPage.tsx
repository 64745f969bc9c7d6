import { NotInThisBuild } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

export function PurchasesPage() {
  return (
    <>
      <PageHeader title="Purchases" description="Bulk airtime and data from spreadsheets, electricity tokens and cable TV subscriptions" />
      <NotInThisBuild what="Buying from spreadsheets, electricity and cable TV arrive with the bulk purchases release." />
    </>
  );
}
