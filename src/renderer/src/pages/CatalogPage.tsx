import { NotInThisBuild } from '../components/ComingSoon';
import { PageHeader } from '../components/PageHeader';

export function CatalogPage() {
  return (
    <>
      <PageHeader title="Catalog" description="Products, prices and the codes a purchase sends" />
      <NotInThisBuild what="The catalog browser arrives with the log mirror release." />
    </>
  );
}
