/** Deterministic, realistic customer details for validated meters and smartcards. */

const FIRST = ['Adebayo', 'Chinwe', 'Emeka', 'Funmilayo', 'Ibrahim', 'Ngozi', 'Oluwaseun', 'Aisha', 'Tunde', 'Blessing', 'Musa', 'Chiamaka', 'Yusuf', 'Folake', 'Obinna', 'Hadiza'];
const LAST = ['Okafor', 'Adeyemi', 'Bello', 'Eze', 'Ogunleye', 'Abubakar', 'Nwosu', 'Olawale', 'Danjuma', 'Chukwu', 'Balogun', 'Okonkwo', 'Lawal', 'Ibekwe', 'Suleiman', 'Afolabi'];
const STREETS = [
  'Allen Avenue',
  'Adeola Odeku Street',
  'Awolowo Road',
  'Ahmadu Bello Way',
  'Aminu Kano Crescent',
  'Ogui Road',
  'Aba Road',
  'Ring Road',
  'Murtala Mohammed Way',
  'Bompai Road',
];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function customerName(account: string): string {
  const h = hash(account);
  return `${FIRST[h % FIRST.length]} ${LAST[(h >>> 8) % LAST.length]}`;
}

export function customerAddress(account: string, city: string): string {
  const h = hash(account + city);
  return `${(h % 120) + 1} ${STREETS[(h >>> 8) % STREETS.length]}, ${city}`;
}

/** A postpaid meter's outstanding bill in Naira (whole Naira, deterministic). */
export function outstandingNaira(account: string): number {
  return (hash(account) % 400) * 50;
}

/** A 20-digit prepaid token in groups of four, e.g. `1234-5678-9012-3456-7890`. */
export function electricityToken(reference: string): string {
  let digits = '';
  let h = hash(reference);
  while (digits.length < 20) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    digits += String(h % 10);
  }
  return digits.match(/.{4}/g)!.join('-');
}
