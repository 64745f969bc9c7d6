import { useState } from 'react';
import { isWaitingPurchase, type PurchaseView, type WaitingPurchaseView } from '../../../../shared/contract/purchases';
import { normalizePhone } from '../../../../shared/phone';
import { useAction } from '../../hooks/useAction';
import { useDataChanged } from '../../hooks/useOperation';

/**
 * The steps every single purchase goes through, whatever it buys: check the account with the
 * service (a meter, a smartcard, a number), enter the customer's phone, review, buy, and show the
 * receipt. `Checked` is what the check returns (the customer's name and details); `Result` is the
 * receipt (an electricity or cable purchase unless said otherwise).
 */
export function usePurchaseFlow<Checked, Result extends { state: string } = PurchaseView>() {
  const [phone, setPhone] = useState('');
  // Kept on the purchase (docs/cost-centres.md); it stays for the next purchase, as a department often buys several.
  const [costCentre, setCostCentre] = useState('');
  const [checked, setChecked] = useState<Checked | null>(null);
  const checking = useAction();
  const [checkTitle, setCheckTitle] = useState('');
  const [confirming, setConfirming] = useState(false);
  const buying = useAction();
  const [result, setResult] = useState<Result | null>(null);
  // Sent for a team member's approval instead of bought: said under the form, which stays as it was.
  const [waiting, setWaiting] = useState<WaitingPurchaseView | null>(null);
  const [recentKey, setRecentKey] = useState(0);

  // A check answered on one connection (its wallet, its customer names) says nothing of another:
  // a switch forgets it, and the review it opened; the fields and any refusal stay on screen.
  useDataChanged(['connection'], () => {
    setChecked(null);
    setConfirming(false);
  });

  const phoneCheck = phone.trim() === '' ? null : normalizePhone(phone);
  const phoneProblem = phoneCheck && !phoneCheck.ok ? phoneCheck.reason : null;

  /** Asks the service about the account; a failure is shown under `failedTitle`. */
  const check = async (failedTitle: string, call: () => Promise<Checked>) => {
    setCheckTitle(failedTitle);
    buying.setError(null);
    if (!(await checking.run(async () => setChecked(await call())))) setChecked(null);
  };

  const buy = async (call: () => Promise<Result | WaitingPurchaseView>) => {
    checking.setError(null);
    setWaiting(null);
    await buying.run(async () => {
      const answer = await call();
      if (isWaitingPurchase(answer)) setWaiting(answer);
      else setResult(answer);
      setRecentKey((k) => k + 1);
    });
    setConfirming(false);
  };

  const clearErrors = () => {
    checking.setError(null);
    buying.setError(null);
    setWaiting(null);
  };

  /** What was checked no longer holds (another account, company or type was chosen). */
  const forgetCheck = () => {
    setChecked(null);
    clearErrors();
  };

  /** Back to the form after a receipt; the caller clears its own fields. */
  const startOver = () => {
    setResult(null);
    setChecked(null);
    clearErrors();
  };

  return {
    phone,
    setPhone,
    costCentre,
    setCostCentre,
    phoneCheck,
    phoneProblem,
    checked,
    checking: checking.busy,
    check,
    forgetCheck,
    confirming,
    setConfirming,
    buying: buying.busy,
    buy,
    error: buying.error ?? checking.error,
    waiting,
    errorTitle: buying.error ? 'Not bought' : checkTitle,
    result,
    recentKey,
    startOver,
  };
}

export type PurchaseFlow<Checked, Result extends { state: string } = PurchaseView> = ReturnType<typeof usePurchaseFlow<Checked, Result>>;
